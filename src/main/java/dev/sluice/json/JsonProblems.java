package dev.sluice.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

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
}
