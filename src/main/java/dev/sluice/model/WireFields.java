package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads typed values out of a wire body, refusing a malformed one with an
 * {@link IllegalArgumentException} that names its JSON path, the value and what was expected:
 * {@code messages[2].content[0].image_url.url: 42 (expected: a string)}. A field that is
 * absent and one that is {@code null} read the same.
 */
public final class WireFields {
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int SHOWN = 60;

    private WireFields() {}

    public static String path(String parent, String field) {
        return parent.isEmpty() ? field : parent + "." + field;
    }

    public static String path(String parent, int index) {
        return parent + "[" + index + "]";
    }

    public static boolean absent(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode();
    }

    public static ObjectNode object(JsonNode value, String path) {
        if (value instanceof ObjectNode object) {
            return object;
        }
        throw refused(path, value, "an object");
    }

    public static ArrayNode array(JsonNode value, String path) {
        if (value instanceof ArrayNode array) {
            return array;
        }
        throw refused(path, value, "an array");
    }

    public static String text(JsonNode parent, String field, String parentPath) {
        String value = optionalText(parent, field, parentPath);
        if (value == null) {
            throw refused(path(parentPath, field), parent.get(field), "a string");
        }
        return value;
    }

    public static String optionalText(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isTextual()) {
            throw refused(path(parentPath, field), value, "a string");
        }
        return value.textValue();
    }

    public static Boolean optionalBoolean(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isBoolean()) {
            throw refused(path(parentPath, field), value, "a boolean");
        }
        return value.booleanValue();
    }

    public static Double optionalNumber(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.isNumber() || value.doubleValue() < 0) {
            throw refused(path(parentPath, field), value, "a number >= 0");
        }
        return value.doubleValue();
    }

    /** A count: a whole number {@code >= 0}; null when absent. */
    public static Integer optionalCount(JsonNode parent, String field, String parentPath) {
        JsonNode value = parent.get(field);
        if (absent(value)) {
            return null;
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < 0) {
            throw refused(path(parentPath, field), value, "a whole number >= 0");
        }
        return value.intValue();
    }

    /** A token count: a whole number {@code >= 0}, 0 when absent. */
    public static long tokens(JsonNode parent, String field, String parentPath) {
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
    public static IllegalArgumentException refused(String path, JsonNode value, String expected) {
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
