package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.model.WireFields;

/**
 * OpenAI's {@code usage} and {@code finish_reason}, which answers and stream chunks share.
 * Cached prompt tokens are {@code usage.prompt_tokens_details.cached_tokens}, reasoning tokens
 * {@code usage.completion_tokens_details.reasoning_tokens}; OpenAI does not report tokens
 * written to its cache, so they use LiteLLM's {@code usage.cache_creation_input_tokens}.
 */
final class OpenAiUsage {
    private OpenAiUsage() {}

    static Usage decode(JsonNode node, String path) {
        ObjectNode usage = object(node, path);
        String prompt = path(path, "prompt_tokens_details");
        String completion = path(path, "completion_tokens_details");
        return new Usage(tokens(usage, "prompt_tokens", path), tokens(usage, "completion_tokens", path),
                tokens(details(usage, "prompt_tokens_details", prompt), "cached_tokens", prompt),
                tokens(usage, "cache_creation_input_tokens", path),
                tokens(details(usage, "completion_tokens_details", completion), "reasoning_tokens", completion));
    }

    private static ObjectNode details(ObjectNode usage, String field, String path) {
        JsonNode details = usage.get(field);
        return absent(details) ? null : object(details, path);
    }

    static ObjectNode encode(Usage usage) {
        ObjectNode node = NODES.objectNode().put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens()).put("total_tokens", usage.totalTokens());
        node.putObject("prompt_tokens_details").put("cached_tokens", usage.cachedPromptTokens());
        node.putObject("completion_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
        if (usage.cacheCreationTokens() > 0) {
            node.put("cache_creation_input_tokens", usage.cacheCreationTokens());
        }
        return node;
    }

    /** The reason at {@code path}, or null when there is none yet (a stream chunk before the last). */
    static FinishReason decodeFinish(JsonNode parent, String path) {
        String reason = optionalText(parent, "finish_reason", path);
        if (reason == null) {
            return null;
        }
        if (reason.isBlank()) {
            throw refused(path(path, "finish_reason"), parent.get("finish_reason"), "a non-blank string");
        }
        return switch (reason) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            case "tool_calls" -> FinishReason.TOOL_CALLS;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.other(reason);
        };
    }

    static String encodeFinish(FinishReason reason) {
        return switch (reason.kind()) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TOOL_CALLS -> "tool_calls";
            case CONTENT_FILTER -> "content_filter";
            case OTHER -> reason.vendorReason();
        };
    }
}
