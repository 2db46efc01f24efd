package dev.sluice.vendors.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.WireFields;

/**
 * What reading a Responses API body needs beyond {@link WireFields}, whose refusals name the
 * JSON path, the value and what was expected:
 * {@code input[2].type: "computer_call" (expected: message, function_call, ...)}.
 */
final class ResponsesFields {
    private ResponsesFields() {}

    static String nonBlank(JsonNode parent, String field, String parentPath) {
        String value = WireFields.text(parent, field, parentPath);
        if (value.isBlank()) {
            throw WireFields.refused(WireFields.path(parentPath, field), parent.get(field), "a non-blank string");
        }
        return value;
    }
}
