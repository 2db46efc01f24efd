package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.StreamEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the events of one ConverseStream into the internal model: {@code messageStart},
 * {@code contentBlockStart} (a tool call's id and name), {@code contentBlockDelta} (text, a
 * tool call's input, reasoning), {@code contentBlockStop}, {@code messageStop} (the stop
 * reason) and {@code metadata} (usage). An exception event is thrown as a
 * {@link ConverseStreamError}. The deltas of the tool that carries a {@code response_format}
 * answer are the answer's text. One per stream.
 */
public final class ConverseStreamDecoder {
    private final String id;
    private final String model;
    private final String responseTool;
    /** Content block index to the OpenAI tool call index it became. */
    private final Map<Integer, Integer> toolCalls = new HashMap<>();
    /** Content blocks that carry the {@code response_format} answer. */
    private final Set<Integer> answerBlocks = new HashSet<>();
    private boolean started;

    /**
     * @param id           the id the answer's chunks carry (Converse gives none)
     * @param model        the model named in the chunks
     * @param responseTool the tool carrying a {@code response_format} answer, or null
     */
    public ConverseStreamDecoder(String id, String model, String responseTool) {
        this.id = id;
        this.model = model;
        this.responseTool = responseTool;
    }

    /**
     * The internal events one ConverseStream event means.
     *
     * @param eventType the frame's {@code :event-type}, or for an exception frame its {@code :exception-type}
     * @param exception whether the frame is an exception
     * @param payload   the frame's JSON payload
     * @throws ConverseStreamError for an exception event
     */
    public List<StreamEvent> decode(String eventType, boolean exception, JsonNode payload) {
        if (exception) {
            throw new ConverseStreamError(BedrockErrors.exceptionName(eventType), payload.path("message").asText(
                    payload.path("Message").asText("the stream ended with " + eventType)));
        }
        List<StreamEvent> events = new ArrayList<>();
        if (!started) {
            started = true;
            events.add(new StreamEvent.Started(id, model));
        }
        switch (eventType) {
            case "contentBlockStart" -> start(payload, events);
            case "contentBlockDelta" -> delta(payload, events);
            case "messageStop" -> events.add(new StreamEvent.Finished(ConverseUsage.finish(
                    payload.path("stopReason").asText("end_turn"), !answerBlocks.isEmpty() && toolCalls.isEmpty())));
            case "metadata" -> {
                if (payload.has("usage")) {
                    events.add(new StreamEvent.UsageReported(ConverseUsage.usage(payload.get("usage"))));
                }
            }
            default -> { } // messageStart, contentBlockStop and events added later say nothing new
        }
        return events;
    }

    private void start(JsonNode payload, List<StreamEvent> events) {
        JsonNode toolUse = payload.path("start").path("toolUse");
        if (!toolUse.isObject()) {
            return;
        }
        int block = payload.path("contentBlockIndex").asInt();
        String name = toolUse.path("name").asText();
        if (name.equals(responseTool)) {
            answerBlocks.add(block);
            return;
        }
        int index = toolCalls.size();
        toolCalls.put(block, index);
        events.add(new StreamEvent.ToolCallDelta(index, toolUse.path("toolUseId").asText(), name, ""));
    }

    private void delta(JsonNode payload, List<StreamEvent> events) {
        int block = payload.path("contentBlockIndex").asInt();
        JsonNode delta = payload.path("delta");
        if (delta.has("text")) {
            events.add(new StreamEvent.TextDelta(delta.path("text").asText()));
        } else if (delta.has("toolUse")) {
            String input = delta.path("toolUse").path("input").asText("");
            if (answerBlocks.contains(block)) {
                events.add(new StreamEvent.TextDelta(input));
            } else if (toolCalls.containsKey(block)) {
                events.add(new StreamEvent.ToolCallDelta(toolCalls.get(block), null, null, input));
            }
        } else if (delta.has("reasoningContent")) {
            JsonNode reasoning = delta.get("reasoningContent");
            if (reasoning.has("redactedContent")) {
                events.add(new StreamEvent.ReasoningDelta(reasoning.path("redactedContent").asText(), null, true));
            } else if (reasoning.has("signature")) {
                events.add(new StreamEvent.ReasoningDelta("", reasoning.path("signature").asText(), false));
            } else {
                events.add(new StreamEvent.ReasoningDelta(reasoning.path("text").asText(""), null, false));
            }
        }
    }
}
