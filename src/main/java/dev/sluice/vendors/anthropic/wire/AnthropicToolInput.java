package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;

/**
 * A tool call's arguments between OpenAI's JSON text and Anthropic's {@code input} object.
 * Anthropic holds the input as an object, so text that is not a JSON object cannot be sent
 * back to it; empty text is read as no arguments.
 */
final class AnthropicToolInput {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AnthropicToolInput() {}

    static JsonNode parse(String arguments, String path) {
        if (arguments.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode input;
        try {
            input = MAPPER.readTree(arguments);
        } catch (IOException malformed) {
            input = null;
        }
        if (input == null || !input.isObject()) {
            String shown = arguments.length() <= 60 ? arguments : arguments.substring(0, 60) + "...";
            throw new IllegalArgumentException(path + ": " + shown + " (expected: a JSON object as text, which Anthropic takes as the tool's input)");
        }
        return input;
    }

    /** The input as OpenAI's arguments text. */
    static String text(JsonNode input) {
        try {
            return MAPPER.writeValueAsString(input == null || input.isNull() ? JsonNodeFactory.instance.objectNode() : input);
        } catch (IOException cannotHappenInMemory) {
            throw new IllegalStateException(cannotHappenInMemory);
        }
    }
}
