package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** The JSON reading and writing the Converse codec shares. */
final class ConverseJson {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ConverseJson() {}

    /** JSON text as a tree, or null when it is not JSON. */
    static JsonNode parseOrNull(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException notJson) {
            return null;
        }
    }

    /** A tree as compact JSON text. */
    static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException cannotHappenForATree) {
            throw new IllegalStateException(cannotHappenForATree);
        }
    }
}
