package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.StreamEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the chunks of one {@code streamGenerateContent?alt=sse} stream. Each chunk is a whole
 * {@code GenerateContentResponse} holding the next parts of the first candidate: text and
 * thoughts arrive as deltas, a function call arrives whole (so its tool call is one delta with
 * id, name and all its arguments), {@code finishReason} comes on the last chunk and
 * {@code usageMetadata}, counted so far, on every chunk. One per stream.
 *
 * <p>A refusal before anything was said (a blocked prompt, a candidate withheld for safety
 * with no parts) is thrown as {@link GeminiBlocked}, so the attempt can still fall back; once
 * text has gone out a safety stop ends the stream with {@code content_filter}.
 */
public final class GeminiChunkDecoder {
    private final String model;
    private final ToolCallIds ids;
    private boolean started;
    private boolean saidSomething;
    private int toolCalls;

    GeminiChunkDecoder(String model, ToolCallIds ids) {
        this.model = model;
        this.ids = ids;
    }

    /** The events one chunk means, in order; {@link StreamEvent.Started} with the first that says anything. */
    public List<StreamEvent> decode(JsonNode chunk) {
        GeminiAnswers.refuseBlockedPrompt(chunk);
        JsonNode candidate = chunk.path("candidates").path(0);
        JsonNode rawParts = candidate.path("content").path("parts");
        String reason = candidate.path("finishReason").asText("");
        if (!saidSomething && rawParts.isEmpty() && GeminiAnswers.FILTERED.contains(reason)) {
            throw new GeminiBlocked(reason, "Gemini withheld the answer: finishReason " + reason);
        }
        List<StreamEvent> events = new ArrayList<>();
        if (!started) {
            started = true;
            String id = chunk.path("responseId").asText("");
            events.add(new StreamEvent.Started(id.isEmpty() ? "chatcmpl-" + ids.next().substring(5) : id,
                    chunk.path("modelVersion").asText(model)));
        }
        for (ContentPart part : GeminiAnswers.parts(rawParts, ids)) {
            saidSomething = true;
            switch (part) {
                case ContentPart.Text text -> events.add(new StreamEvent.TextDelta(text.text()));
                case ContentPart.Reasoning thought -> events.add(new StreamEvent.ReasoningDelta(thought.text(), null, false));
                case ContentPart.ToolCall call -> events.add(
                        new StreamEvent.ToolCallDelta(toolCalls++, call.id(), call.name(), call.arguments()));
                default -> { }
            }
        }
        if (chunk.has("usageMetadata")) {
            events.add(new StreamEvent.UsageReported(GeminiAnswers.usage(chunk.get("usageMetadata"))));
        }
        if (!reason.isEmpty()) {
            events.add(new StreamEvent.Finished(GeminiAnswers.finishReason(reason, toolCalls > 0)));
        }
        return events;
    }
}
