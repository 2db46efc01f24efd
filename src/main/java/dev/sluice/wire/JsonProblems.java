package dev.sluice.wire;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/** How a caller is told what is wrong with the JSON it sent: the parser's reason, and a value's type in words. */
public final class JsonProblems {
    private JsonProblems() {}

    /** Jackson's reason for a JSON parse failure, its first line and where, without the echoed input. */
    public static String describe(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String reason = e.getOriginalMessage();
        int cut = reason.indexOf('\n');
        if (cut > 0) {
            reason = reason.substring(0, cut);
        }
        return at == null ? reason : reason + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /** A value's JSON type as OpenAI's errors name it: "an array", "a string", "null". */
    public static String typeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal";
            case OBJECT, POJO -> "an object";
            case STRING, BINARY -> "a string";
            case NULL, MISSING -> "null";
        };
    }

    /**
     * Where the first NUL character is in a JSON value, a field name's or a string's (e.g.
     * {@code keys[0]}, {@code model_info.id}); empty when there is none. No store takes a NUL
     * in text, and no name or id needs one, so a body that has one is refused before it is used.
     */
    public static Optional<String> nulAt(JsonNode node) {
        return nulAt(node, "");
    }

    private static Optional<String> nulAt(JsonNode node, String path) {
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0 ? Optional.of(path) : Optional.empty();
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> found = nulAt(node.get(i), path + "[" + i + "]");
                if (found.isPresent()) {
                    return found;
                }
            }
            return Optional.empty();
        }
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String at = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
            if (field.getKey().indexOf('\0') >= 0) {
                return Optional.of(path.isEmpty() ? "(a field name)" : path);
            }
            Optional<String> found = nulAt(field.getValue(), at);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
