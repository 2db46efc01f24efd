package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.call.guardrail.Guardrails;
import dev.sluice.wire.ApiError;
import java.util.ArrayList;
import java.util.List;

/**
 * The guardrails a caller names in the body's {@code guardrails} field, run on top of the
 * {@code default_on} ones and the deployment's. A name that is not configured is a 400: a
 * caller asking for a check that would silently not run must hear about it.
 */
final class RequestedGuardrails {
    private RequestedGuardrails() {}

    static List<String> read(ObjectNode body, Guardrails configured) {
        JsonNode node = body.get("guardrails");
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw ApiError.invalidRequest("Invalid 'guardrails': must be a list of guardrail names.", "guardrails", "invalid_type");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode item = node.get(i);
            if (!item.isTextual()) {
                throw ApiError.invalidRequest("Invalid 'guardrails[" + i + "]': must be a guardrail name.", "guardrails", "invalid_type");
            }
            if (!configured.has(item.textValue())) {
                throw ApiError.invalidRequest("Invalid 'guardrails[" + i + "]': no guardrail is named '" + item.textValue()
                        + "'. Configured guardrails: " + (configured.names().isEmpty() ? "none" : String.join(", ", configured.names())) + ".",
                        "guardrails", "invalid_value");
            }
            names.add(item.textValue());
        }
        return List.copyOf(names);
    }
}
