package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.GatewayFields;
import java.util.Map;

/**
 * The view the gateway reads of a call it could not translate to OpenAI's form (it holds a
 * block or a tool only its own vendor takes): the texts of each turn in order, enough to count
 * tokens and to check guardrails, with the reason it could not be translated
 * ({@link GatewayFields#UNTRANSLATABLE}); the caller adds the gateway's own fields. The call
 * itself goes only to deployments that take the caller's body untranslated.
 */
public final class ApproximateChat {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ApproximateChat() {}

    /**
     * @param turns each turn as a role and the node whose texts it holds, in order
     * @param why   why the call could not be translated
     */
    public static ObjectNode of(String group, Iterable<Map.Entry<String, JsonNode>> turns, boolean stream, String why) {
        ObjectNode body = NODES.objectNode().put("model", group);
        ArrayNode messages = body.putArray("messages");
        for (Map.Entry<String, JsonNode> turn : turns) {
            StringBuilder text = new StringBuilder();
            collect(turn.getValue(), text);
            messages.addObject().put("role", turn.getKey()).put("content", text.toString());
        }
        if (stream) {
            body.put("stream", true);
        }
        body.put(GatewayFields.UNTRANSLATABLE, why);
        return body;
    }

    /** Every text the node holds: strings under {@code text}, {@code content}, {@code output} and {@code thinking}, in order. */
    private static void collect(JsonNode node, StringBuilder text) {
        if (node == null) {
            return;
        }
        if (node.isTextual()) {
            append(text, node.textValue());
        } else if (node.isArray()) {
            node.forEach(element -> collect(element, text));
        } else if (node.isObject()) {
            node.properties().forEach(field -> {
                switch (field.getKey()) {
                    case "text", "content", "output", "thinking" -> collect(field.getValue(), text);
                    default -> { }
                }
            });
        }
    }

    private static void append(StringBuilder text, String more) {
        if (!text.isEmpty() && !more.isEmpty()) {
            text.append('\n');
        }
        text.append(more);
    }
}
