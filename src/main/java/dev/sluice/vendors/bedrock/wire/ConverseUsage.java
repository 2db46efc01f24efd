package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;

/**
 * Converse's {@code stopReason} and {@code usage} in the internal terms. Converse counts cache
 * reads and writes apart from {@code inputTokens}; OpenAI's {@code prompt_tokens} holds them all.
 */
final class ConverseUsage {
    private ConverseUsage() {}

    static Usage usage(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return Usage.NONE;
        }
        long input = count(usage, "inputTokens");
        long cacheRead = count(usage, "cacheReadInputTokens");
        long cacheWrite = count(usage, "cacheWriteInputTokens");
        return new Usage(input + cacheRead + cacheWrite, count(usage, "outputTokens"), cacheRead, cacheWrite, 0);
    }

    /**
     * @param forcedTool whether the only tool called carries a {@code response_format} answer: the
     *                   model then finished its answer, it did not ask for a tool to be run
     */
    static FinishReason finish(String stopReason, boolean forcedTool) {
        return switch (stopReason) {
            case "end_turn", "stop_sequence" -> FinishReason.STOP;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "tool_use" -> forcedTool ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            case "guardrail_intervened", "content_filtered" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.other(stopReason);
        };
    }

    private static long count(JsonNode usage, String field) {
        JsonNode value = usage.get(field);
        if (value == null || value.isNull()) {
            return 0;
        }
        if (!value.canConvertToLong() || value.asLong() < 0) {
            throw new IllegalArgumentException("usage." + field + ": " + value + " (expected: a count >= 0)");
        }
        return value.asLong();
    }
}
