package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.model.WireFields;

/**
 * The {@code response} object, as a whole answer and as the stream's {@code response.*}
 * events carry it. Besides the output it repeats the request's settings back, as OpenAI does;
 * a setting the caller left out is written as OpenAI's default ({@code tools: []},
 * {@code tool_choice: "auto"}, {@code parallel_tool_calls: true}, {@code text} of format
 * {@code text}) or as {@code null} where the default is the model's own (temperature, top_p).
 */
final class ResponseObject {
    private ResponseObject() {}

    /** The response with {@code status} and {@code output}, no usage, no error and no incomplete details. */
    static ObjectNode of(ResponsesRequest request, ResponseMeta meta, String status, ArrayNode output) {
        ObjectNode echoed = request.echoed();
        ObjectNode response = NODES.objectNode().put("id", meta.id()).put("object", "response").put("created_at", meta.createdAt())
                .put("status", status);
        response.putNull("error");
        response.putNull("incomplete_details");
        response.put("instructions", request.instructions());
        response.set("max_output_tokens", echoed(echoed, "max_output_tokens", NODES.nullNode()));
        response.put("model", meta.model());
        response.set("output", output);
        response.set("parallel_tool_calls", echoed(echoed, "parallel_tool_calls", NODES.booleanNode(true)));
        response.put("previous_response_id", request.previousResponseId());
        ObjectNode reasoning = NODES.objectNode().putNull("effort").putNull("summary");
        response.set("reasoning", echoed(echoed, "reasoning", reasoning));
        response.put("store", request.store());
        response.set("temperature", echoed(echoed, "temperature", NODES.nullNode()));
        ObjectNode text = NODES.objectNode();
        text.putObject("format").put("type", "text");
        response.set("text", echoed(echoed, "text", text));
        response.set("tool_choice", echoed(echoed, "tool_choice", NODES.textNode("auto")));
        response.set("tools", echoed(echoed, "tools", NODES.arrayNode()));
        response.set("top_p", echoed(echoed, "top_p", NODES.nullNode()));
        response.put("truncation", "disabled");
        response.putNull("usage");
        response.set("user", echoed(echoed, "user", NODES.nullNode()));
        response.set("metadata", request.metadata() == null ? NODES.objectNode() : request.metadata().deepCopy());
        return response;
    }

    private static JsonNode echoed(ObjectNode echoed, String field, JsonNode otherwise) {
        JsonNode value = echoed.get(field);
        return value == null || value.isNull() ? otherwise : value.deepCopy();
    }

    /** Marks {@code response} finished for {@code reason}: completed, or incomplete at the token limit or the content filter. */
    static void finish(ObjectNode response, FinishReason reason, Usage usage) {
        String incomplete = incompleteReason(reason);
        if (incomplete == null) {
            response.put("status", ResponsesOutput.COMPLETED);
        } else {
            response.put("status", "incomplete");
            response.putObject("incomplete_details").put("reason", incomplete);
        }
        response.set("usage", usage(usage));
    }

    /** {@code max_output_tokens} or {@code content_filter} when the answer stopped short, else null. */
    static String incompleteReason(FinishReason reason) {
        return switch (reason.kind()) {
            case LENGTH -> "max_output_tokens";
            case CONTENT_FILTER -> "content_filter";
            case STOP, TOOL_CALLS, OTHER -> null;
        };
    }

    static void fail(ObjectNode response, String code, String message) {
        response.put("status", "failed");
        response.putObject("error").put("code", code).put("message", message);
    }

    /** OpenAI's count of the tokens written to its prompt cache is {@code input_tokens_details.cache_write_tokens}. */
    static ObjectNode usage(Usage usage) {
        ObjectNode node = NODES.objectNode().put("input_tokens", usage.promptTokens());
        node.putObject("input_tokens_details").put("cached_tokens", usage.cachedPromptTokens())
                .put("cache_write_tokens", usage.cacheCreationTokens());
        node.put("output_tokens", usage.completionTokens());
        node.putObject("output_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
        node.put("total_tokens", usage.totalTokens());
        return node;
    }
}
