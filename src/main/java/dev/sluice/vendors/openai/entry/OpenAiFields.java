package dev.sluice.vendors.openai.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonProblems;
import dev.sluice.wire.JsonReading;
import io.vertx.core.buffer.Buffer;

/** The checks of a body's routing fields, each refusal worded as OpenAI words it. */
public final class OpenAiFields {
    private OpenAiFields() {}

    /** The body as a JSON object, parsed within {@code json}'s limits; refused when it is empty, not JSON, or not an object. */
    public static ObjectNode object(Buffer bytes, JsonReading json) {
        JsonNode root = json.parse(bytes).orElseThrow(
                () -> ApiError.invalidRequest("Request body is empty; expected a JSON object.", null, "invalid_json"));
        if (!(root instanceof ObjectNode body)) {
            throw ApiError.invalidRequest("Request body must be a JSON object, but got " + JsonProblems.typeName(root) + ".", null,
                    "invalid_type");
        }
        return body;
    }

    public static String requireString(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        if (!value.isTextual()) {
            throw invalidType(field, "a string", value);
        }
        if (value.textValue().isBlank()) {
            throw ApiError.invalidRequest("Invalid '" + field + "': empty string. Expected a non-empty string.", field, "invalid_value");
        }
        return value.textValue();
    }

    static void requireMessages(ObjectNode body) {
        JsonNode messages = body.get("messages");
        if (messages == null || messages.isNull()) {
            throw missing("messages");
        }
        if (!messages.isArray()) {
            throw invalidType("messages", "an array", messages);
        }
        if (messages.isEmpty()) {
            throw ApiError.invalidRequest(
                    "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
                    "messages", "empty_array");
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String path = "messages[" + i + "]";
            if (!message.isObject()) {
                throw invalidType(path, "an object", message);
            }
            JsonNode role = message.get("role");
            if (role == null || role.isNull()) {
                throw missing(path + ".role");
            }
            if (!role.isTextual()) {
                throw invalidType(path + ".role", "a string", role);
            }
        }
    }

    static void requireStringOrArray(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        if (!value.isTextual() && !value.isArray()) {
            throw invalidType(field, "a string or an array", value);
        }
    }

    static void requireArray(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        if (!value.isArray()) {
            throw invalidType(field, "an array", value);
        }
    }

    static ApiError missing(String field) {
        return ApiError.invalidRequest("Missing required parameter: '" + field + "'.", field, "missing_required_parameter");
    }

    static ApiError invalidType(String field, String expected, JsonNode got) {
        return ApiError.invalidRequest(
                "Invalid type for '" + field + "': expected " + expected + ", but got " + JsonProblems.typeName(got) + " instead.",
                field, "invalid_type");
    }
}
