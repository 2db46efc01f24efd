package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.WireFields;

/**
 * The output items a response holds, written alike for a whole response and for a stream's
 * {@code output_item} events: an assistant {@code message} of {@code output_text} parts, a
 * {@code function_call}, and (in {@link ResponsesReasoning}) a {@code reasoning} item.
 */
final class ResponsesOutput {
    static final String COMPLETED = "completed";
    static final String IN_PROGRESS = "in_progress";

    private ResponsesOutput() {}

    static ObjectNode message(String id, String status, ArrayNode content) {
        ObjectNode item = NODES.objectNode().put("id", id).put("type", "message").put("status", status).put("role", "assistant");
        item.set("content", content);
        return item;
    }

    static ObjectNode outputText(String text) {
        ObjectNode part = NODES.objectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        return part;
    }

    static ObjectNode functionCall(String id, String status, String callId, String name, String arguments) {
        return NODES.objectNode().put("id", id).put("type", "function_call").put("status", status).put("arguments", arguments)
                .put("call_id", callId).put("name", name);
    }
}
