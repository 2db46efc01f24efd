package dev.sluice.vendors.anthropic.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.entry.WrittenError;
import java.util.Set;

/**
 * Errors as Anthropic writes them, {@code {"type":"error","error":{"type","message"}}}, with
 * the status its type goes with. The gateway's message is kept word for word. An unknown
 * model is Anthropic's 404 {@code not_found_error}, and a key calling a model it may not use
 * its 403 {@code permission_error}; an upstream's own Anthropic error type (carried as the
 * code of the OpenAI-shaped error) is kept.
 */
final class MessagesErrors {
    private static final Set<String> TYPES = Set.of("invalid_request_error", "authentication_error", "permission_error",
            "not_found_error", "request_too_large", "rate_limit_error", "api_error", "overloaded_error", "billing_error",
            "timeout_error");

    private MessagesErrors() {}

    static WrittenError of(int status, ObjectNode openAiError) {
        JsonNode error = openAiError.path("error");
        String code = error.path("code").asText("");
        int told = switch (code) {
            case "model_not_found" -> 404;
            case "model_access_denied" -> 403;
            default -> status;
        };
        String type = TYPES.contains(code) ? code : type(told);
        return new WrittenError(told, body(type, error.path("message").asText("")));
    }

    /** An error body of {@code type}. */
    static ObjectNode body(String type, String message) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("type", "error");
        body.putObject("error").put("type", type).put("message", message);
        return body;
    }

    /** Anthropic's error type for a status. */
    static String type(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 402 -> "billing_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 408, 504 -> "timeout_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 503, 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }
}
