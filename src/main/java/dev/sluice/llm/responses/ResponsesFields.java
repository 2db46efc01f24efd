package dev.sluice.llm.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads typed values out of a Responses API body, refusing a malformed one with an
 * {@link IllegalArgumentException} that names its JSON path, the value and what was expected:
 * {@code input[2].type: "computer_call" (expected: message, function_call, ...)}. A field that
 * is absent and one that is {@code null} read the same.
 */
final class ResponsesFields {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int SHOWN = 60;

    private ResponsesFields() {}

    static String path(String parent, String field) {
        return parent.isEmpty() ? field : parent + "." + field;
    }

    static String path(String parent, int index) {
        return parent + "[" + index + "]";
    }

    static boolean absent(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode();
    }

    static ObjectNode object(JsonNode value, String path) {
        if (value instanceof ObjectNode object) {
            return object;
        }
        throw refused(path, value, "an object");
    }

    static ArrayNode array(JsonNode value, String path) {
        if (value instanceof ArrayNode array) {
            return array;
        }
        throw refused(path, value, "an array");
    }

    static String text(JsonNode parent, String field, String parentPath) {
        String value = optionalText(parent, field, parentPath);
        if (value == null) {
            throw refused(path(parentPath, field), parent.get(field), "a string");
        }
        return value;
    }

    static String nonBlank(JsonNode parent, String field, String parentPath) {
        String value = text(parent, field, parentPath);
        if (value.isBlank()) {
            throw refused(path(parentPath, field), parent.get(field), "a non-blank string");
        }
        return value;
    }

    static String optionalText(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isTextual()) {
            throw refused(path(parentPath, field), value, "a string");
        }
        return value.textValue();
    }

    static Boolean optionalBoolean(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isBoolean()) {
            throw refused(path(parentPath, field), value, "a boolean");
        }
        return value.booleanValue();
    }

    static Double optionalNumber(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isNumber() || value.doubleValue() < 0) {
            throw refused(path(parentPath, field), value, "a number >= 0");
        }
        return value.doubleValue();
    }

    static Integer optionalCount(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            throw refused(path(parentPath, field), value, "a whole number >= 0");
        }
        return value.intValue();
    }

    /** A token count: a whole number {@code >= 0}, 0 when it or its parent is absent. */
    static long tokens(JsonNode parent, String field, String parentPath) {
        if (absent(parent)) {
            return 0;
        }
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw refused(path(parentPath, field), value, "a whole number >= 0");
        }
        return value.longValue();
    }

    /** The refusal of {@code value} (null when the field is missing) at {@code path}. */
    static IllegalArgumentException refused(String path, JsonNode value, String expected) {
        return new IllegalArgumentException(path + ": " + shown(value) + " (expected: " + expected + ")");
    }

    private static String shown(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "missing";
        }
        String text = value.toString();
        return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "...";
    }
}
