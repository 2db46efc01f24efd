package dev.sluice.call;

import dev.sluice.api.ApiError;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.json.Json;
import dev.sluice.provider.Endpoint;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;

/**
 * A model call as the caller sent it, checked just enough to route it: a JSON object with a
 * string {@code model} and the input field its endpoint requires. Everything else is the
 * upstream's to judge.
 *
 * @param group  the model group named by {@code model}
 * @param stream whether the caller asked for server-sent events
 */
public record CallRequest(Endpoint endpoint, ObjectNode body, String group, boolean stream) {

    static CallRequest parse(Endpoint endpoint, Buffer bytes) {
        if (bytes.length() == 0) {
            throw ApiError.invalidRequest("Request body is empty; expected a JSON object.", null, "invalid_json");
        }
        JsonNode root;
        try {
            root = Json.parse(bytes.getBytes());
        } catch (JsonProcessingException e) {
            throw ApiError.invalidRequest("We could not parse the JSON body of your request: " + describe(e), null, "invalid_json");
        } catch (IOException e) {
            throw ApiError.invalidRequest("We could not parse the JSON body of your request: " + e.getMessage(), null, "invalid_json");
        }
        if (root == null || root.isMissingNode()) {
            throw ApiError.invalidRequest("Request body is empty; expected a JSON object.", null, "invalid_json");
        }
        if (!(root instanceof ObjectNode body)) {
            throw ApiError.invalidRequest("Request body must be a JSON object, but got " + typeName(root) + ".", null, "invalid_type");
        }
        String group = requireString(body, "model");
        switch (endpoint) {
            case CHAT_COMPLETIONS -> requireMessages(body);
            case COMPLETIONS -> requireStringOrArray(body, "prompt");
            case EMBEDDINGS -> requireStringOrArray(body, "input");
        }
        boolean stream = false;
        JsonNode streamNode = body.get("stream");
        if (streamNode != null && !streamNode.isNull()) {
            if (!streamNode.isBoolean()) {
                throw invalidType("stream", "a boolean", streamNode);
            }
            stream = streamNode.booleanValue() && endpoint.streamable();
        }
        JsonNode streamOptions = body.get("stream_options");
        if (streamOptions != null && !streamOptions.isNull() && !streamOptions.isObject()) {
            throw invalidType("stream_options", "an object", streamOptions);
        }
        return new CallRequest(endpoint, body, group, stream);
    }

    private static String requireString(ObjectNode body, String field) {
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

    private static void requireMessages(ObjectNode body) {
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

    private static void requireStringOrArray(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        if (!value.isTextual() && !value.isArray()) {
            throw invalidType(field, "a string or an array", value);
        }
    }

    private static ApiError missing(String field) {
        return ApiError.invalidRequest("Missing required parameter: '" + field + "'.", field, "missing_required_parameter");
    }

    private static ApiError invalidType(String field, String expected, JsonNode got) {
        return ApiError.invalidRequest(
                "Invalid type for '" + field + "': expected " + expected + ", but got " + typeName(got) + " instead.",
                field, "invalid_type");
    }

    private static String typeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NUMBER -> node.isIntegralNumber() ? "an integer" : "a decimal";
            case OBJECT, POJO -> "an object";
            case STRING, BINARY -> "a string";
            case NULL, MISSING -> "null";
        };
    }

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
}
