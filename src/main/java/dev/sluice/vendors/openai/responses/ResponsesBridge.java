package dev.sluice.vendors.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What of a Responses request crosses to chat completions. A request may hold what only a
 * deployment serving the Responses API itself can take (a hosted tool, a field newer than this
 * gateway, a background run): it is still served by such a deployment, untranslated; the bridge
 * to any other leaves those parts out of the view the gateway reads and says which they were,
 * so that translating it for a chat-only deployment is refused naming them.
 */
public final class ResponsesBridge {
    private static final Set<String> KNOWN;

    static {
        java.util.HashSet<String> known = new java.util.HashSet<>(ResponsesRequestDecoder.IGNORED);
        known.addAll(ResponsesRequestDecoder.COPIED);
        known.addAll(ResponsesRequestDecoder.READ);
        KNOWN = Set.copyOf(known);
    }

    private ResponsesBridge() {}

    /**
     * The request as the bridge reads it.
     *
     * @param translatable the body with what chat completions cannot carry left out
     * @param leftOut      what was left out, by its JSON path ({@code tools[1]}, {@code a_new_field}); empty when nothing
     */
    public record Bridged(ObjectNode translatable, List<String> leftOut) {
        public Bridged {
            leftOut = List.copyOf(leftOut);
        }
    }

    /** Splits {@code body} into what the bridge carries and what only the Responses API itself takes. */
    public static Bridged of(ObjectNode body) {
        List<String> leftOut = new ArrayList<>();
        ObjectNode kept = JsonNodeFactory.instance.objectNode();
        body.properties().forEach(field -> {
            String name = field.getKey();
            JsonNode value = field.getValue();
            if (!KNOWN.contains(name)) {
                leftOut.add(name);
            } else if (name.equals("background") && value.asBoolean(false)) {
                leftOut.add(name);
            } else if (name.equals("tools") && value.isArray()) {
                kept.set(name, functionTools((ArrayNode) value, leftOut));
            } else if (name.equals("tool_choice") && value.isObject() && !"function".equals(value.path("type").asText())
                    && value.has("type")) {
                leftOut.add(name);
            } else {
                kept.set(name, value);
            }
        });
        return new Bridged(kept, leftOut);
    }

    private static ArrayNode functionTools(ArrayNode tools, List<String> leftOut) {
        ArrayNode functions = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            if (tool.isObject() && tool.has("type") && !"function".equals(tool.path("type").asText())) {
                leftOut.add("tools[" + i + "] (" + tool.path("type").asText() + ")");
            } else {
                functions.add(tool);
            }
        }
        return functions;
    }
}
