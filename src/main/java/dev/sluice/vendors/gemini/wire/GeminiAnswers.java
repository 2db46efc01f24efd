package dev.sluice.vendors.gemini.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.wire.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a {@code GenerateContentResponse}: the first candidate's parts (text, thoughts as
 * reasoning, function calls as tool calls with their {@code args} as JSON text), its
 * {@code finishReason} and the {@code usageMetadata}. A prompt Gemini blocked, or a candidate
 * withheld for safety before it said anything, is a {@link GeminiBlocked}.
 */
final class GeminiAnswers {
    /** The finish reasons that mean Gemini's safety or policy filters stopped the answer. */
    static final Set<String> FILTERED = Set.of("SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII",
            "IMAGE_SAFETY");

    private GeminiAnswers() {}

    static ChatAnswer decode(JsonNode body, String model, ToolCallIds ids) {
        refuseBlockedPrompt(body);
        JsonNode candidate = body.path("candidates").path(0);
        List<ContentPart> content = parts(candidate.path("content").path("parts"), ids);
        String reason = candidate.path("finishReason").asText("STOP");
        if (content.isEmpty() && FILTERED.contains(reason)) {
            throw new GeminiBlocked(reason, "Gemini withheld the answer: finishReason " + reason + safetyDetail(candidate));
        }
        boolean calledTools = content.stream().anyMatch(ContentPart.ToolCall.class::isInstance);
        String id = body.path("responseId").asText("");
        return new ChatAnswer(id.isEmpty() ? "chatcmpl-" + ids.next().substring(5) : id, body.path("modelVersion").asText(model),
                content, finishReason(reason, calledTools), usage(body.path("usageMetadata")));
    }

    /** Gemini's way of refusing a prompt: a 200 with {@code promptFeedback.blockReason} and no candidates. */
    static void refuseBlockedPrompt(JsonNode body) {
        JsonNode feedback = body.path("promptFeedback");
        String blockReason = feedback.path("blockReason").asText("");
        if (!blockReason.isEmpty() && body.path("candidates").isEmpty()) {
            String message = feedback.path("blockReasonMessage").asText("");
            throw new GeminiBlocked(blockReason, "Gemini blocked the prompt: blockReason " + blockReason
                    + (message.isEmpty() ? "" : " (" + message + ")") + safetyDetail(feedback));
        }
    }

    static List<ContentPart> parts(JsonNode parts, ToolCallIds ids) {
        List<ContentPart> content = new ArrayList<>();
        for (JsonNode part : parts) {
            if (part.has("functionCall")) {
                JsonNode call = part.get("functionCall");
                JsonNode args = call.path("args");
                String signature = part.path("thoughtSignature").asText("");
                String id = signature.isEmpty() ? ids.next() : ids.next() + ToolCallIds.THOUGHT_SIGNATURE + signature;
                content.add(new ContentPart.ToolCall(id, call.path("name").asText(),
                        args.isMissingNode() || args.isNull() ? "{}" : Json.MAPPER.valueToTree(args).toString()));
            } else if (part.path("text").isTextual()) {
                String text = part.get("text").textValue();
                content.add(part.path("thought").asBoolean(false) ? ContentPart.Reasoning.plain(text) : new ContentPart.Text(text));
            }
        }
        return content;
    }

    /** STOP is {@code stop}, or {@code tool_calls} when the answer called functions; the filters' words are {@code content_filter}. */
    static FinishReason finishReason(String reason, boolean calledTools) {
        return switch (reason) {
            case "MAX_TOKENS" -> FinishReason.LENGTH;
            case "STOP", "FINISH_REASON_UNSPECIFIED", "OTHER", "LANGUAGE" -> calledTools ? FinishReason.TOOL_CALLS : FinishReason.STOP;
            default -> FILTERED.contains(reason) ? FinishReason.CONTENT_FILTER
                    : calledTools ? FinishReason.TOOL_CALLS : FinishReason.other(reason.toLowerCase(Locale.ROOT));
        };
    }

    /** Thoughts are written tokens too: OpenAI counts reasoning inside {@code completion_tokens}. */
    static Usage usage(JsonNode metadata) {
        long thoughts = metadata.path("thoughtsTokenCount").asLong(0);
        return new Usage(metadata.path("promptTokenCount").asLong(0), metadata.path("candidatesTokenCount").asLong(0) + thoughts,
                metadata.path("cachedContentTokenCount").asLong(0), 0, thoughts);
    }

    /** The categories rated as probably harmful, for the refusal's message. */
    private static String safetyDetail(JsonNode holder) {
        List<String> categories = new ArrayList<>();
        for (JsonNode rating : holder.path("safetyRatings")) {
            if (rating.path("blocked").asBoolean(false) || Set.of("HIGH", "MEDIUM").contains(rating.path("probability").asText())) {
                categories.add(rating.path("category").asText());
            }
        }
        return categories.isEmpty() ? "" : " " + categories;
    }
}
