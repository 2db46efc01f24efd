package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;

/**
 * Anthropic's {@code usage} and {@code stop_reason} in the internal model's terms. Anthropic's
 * {@code input_tokens} leaves out the tokens read from and written to its prompt cache, so
 * the prompt is their sum, as OpenAI counts it; the cache reads are also the cached tokens.
 */
final class AnthropicUsage {
    private AnthropicUsage() {}

    static Usage decode(JsonNode usage) {
        long input = count(usage, "input_tokens");
        long cacheRead = count(usage, "cache_read_input_tokens");
        long cacheCreation = count(usage, "cache_creation_input_tokens");
        return new Usage(input + cacheRead + cacheCreation, count(usage, "output_tokens"), cacheRead, cacheCreation, 0);
    }

    /** A count, 0 when absent, null or not a whole number >= 0 (Anthropic sends null for an unused cache). */
    static long count(JsonNode usage, String field) {
        JsonNode value = usage == null ? null : usage.get(field);
        return value != null && value.canConvertToLong() && value.isIntegralNumber() && value.longValue() >= 0 ? value.longValue() : 0;
    }

    /**
     * {@code end_turn}, {@code stop_sequence} and {@code pause_turn} (a server tool's turn paused,
     * which LiteLLM reads as a stop) end the answer; {@code max_tokens} and
     * {@code model_context_window_exceeded} hit a length; {@code tool_use} asks for tools;
     * {@code refusal} is the safety filter. Any other word is kept as it came.
     */
    static FinishReason finish(String stopReason) {
        if (stopReason == null) {
            return FinishReason.STOP;
        }
        return switch (stopReason) {
            case "end_turn", "stop_sequence", "pause_turn" -> FinishReason.STOP;
            case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
            case "tool_use" -> FinishReason.TOOL_CALLS;
            case "refusal" -> FinishReason.CONTENT_FILTER;
            default -> stopReason.isBlank() ? FinishReason.STOP : FinishReason.other(stopReason);
        };
    }
}
