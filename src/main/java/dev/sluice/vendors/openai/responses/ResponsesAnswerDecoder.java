package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;
import static dev.sluice.model.WireFields.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code response} object from an upstream that serves the Responses API itself, read into
 * a {@link ChatAnswer}: message text (and refusals) as text, reasoning items as reasoning,
 * function calls as tool calls. Items of hosted tools, which only a native upstream runs, say
 * nothing the internal answer holds and are passed over. A failed response is an
 * {@link IllegalStateException} with the upstream's message.
 */
final class ResponsesAnswerDecoder {
    private ResponsesAnswerDecoder() {}

    static ChatAnswer decode(JsonNode node) {
        ObjectNode response = object(node, "$");
        String status = text(response, "status", "");
        if (status.equals("failed")) {
            throw new IllegalStateException(errorMessage(response.get("error")));
        }
        List<ContentPart> content = new ArrayList<>();
        ArrayNode output = array(response.get("output"), "output");
        for (int i = 0; i < output.size(); i++) {
            item(object(output.get(i), path("output", i)), path("output", i), content);
        }
        boolean calls = content.stream().anyMatch(ToolCall.class::isInstance);
        Usage usage = absent(response.get("usage")) ? Usage.NONE : usage(response.get("usage"), "usage");
        return new ChatAnswer(text(response, "id", ""), text(response, "model", ""), content, finish(response, status, calls), usage);
    }

    private static void item(ObjectNode item, String path, List<ContentPart> content) {
        switch (text(item, "type", path)) {
            case "message" -> {
                ArrayNode parts = array(item.get("content"), path(path, "content"));
                for (int j = 0; j < parts.size(); j++) {
                    String partPath = path(path(path, "content"), j);
                    ObjectNode part = object(parts.get(j), partPath);
                    switch (text(part, "type", partPath)) {
                        case "output_text" -> content.add(new Text(text(part, "text", partPath)));
                        case "refusal" -> content.add(new Text(text(part, "refusal", partPath)));
                        default -> throw refused(path(partPath, "type"), part.get("type"), "output_text or refusal");
                    }
                }
            }
            case "function_call" -> content.add(new ToolCall(text(item, "call_id", path), text(item, "name", path),
                    text(item, "arguments", path)));
            case "reasoning" -> {
                Reasoning reasoning = ResponsesReasoning.decode(item, path);
                if (reasoning != null) {
                    content.add(reasoning);
                }
            }
            default -> { }
        }
    }

    /** Why the response stopped: its {@code incomplete_details.reason} when incomplete, else tool calls or a natural stop. */
    static FinishReason finish(ObjectNode response, String status, boolean calls) {
        if (!status.equals("incomplete")) {
            return calls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
        }
        JsonNode details = response.get("incomplete_details");
        String reason = absent(details) ? null : optionalText(object(details, "incomplete_details"), "reason", "incomplete_details");
        if (reason == null) {
            return FinishReason.other("incomplete");
        }
        return switch (reason) {
            case "max_output_tokens" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.other(reason);
        };
    }

    static Usage usage(JsonNode node, String path) {
        ObjectNode usage = object(node, path);
        JsonNode input = usage.get("input_tokens_details");
        String inputPath = path(path, "input_tokens_details");
        return new Usage(tokens(usage, "input_tokens", path), tokens(usage, "output_tokens", path),
                tokens(input, "cached_tokens", inputPath), tokens(input, "cache_write_tokens", inputPath),
                tokens(usage.get("output_tokens_details"), "reasoning_tokens", path(path, "output_tokens_details")));
    }

    /** An error object's message, or a plain word when it has none. */
    static String errorMessage(JsonNode error) {
        if (error != null && error.isObject() && error.path("message").isTextual()) {
            return error.get("message").textValue();
        }
        return "the upstream response failed";
    }
}
