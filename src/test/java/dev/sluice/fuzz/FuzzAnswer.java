package dev.sluice.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One answer to a fuzzed request, and the rules every answer keeps: never a 500 of Sluice's
 * own (nor a status past 504), a 503 only with {@code Retry-After}, and every error in the
 * shape of the route's API: Anthropic's on {@code /v1/messages}, OpenAI's everywhere else.
 */
record FuzzAnswer(int status, boolean retryAfter, String body) {

    /**
     * What is wrong with this answer to a request of {@code path} (a {@code HEAD} one's
     * prefixed {@code "HEAD "}, whose answer has no body); empty when nothing is.
     */
    Optional<String> problem(String path) {
        if (status == 500 || status > 504) {
            return Optional.of(status + " " + abbreviated(body));
        }
        if (status == 503 && !retryAfter) {
            return Optional.of("503 without Retry-After: " + abbreviated(body));
        }
        if (status >= 400 && !path.startsWith("HEAD ") && !inErrorShape(path)) {
            return Optional.of(status + " not in the " + (anthropic(path) ? "Anthropic" : "OpenAI") + " error shape: "
                    + abbreviated(body));
        }
        return Optional.empty();
    }

    /** The error's {@code code} (OpenAI's shape) or {@code type} (Anthropic's); empty when the body has none. */
    String errorCode() {
        JsonNode error = json().path("error");
        return error.path("code").isTextual() ? error.path("code").asText() : error.path("type").asText("");
    }

    /**
     * Whether the error is the one {@code code} names: its code in OpenAI's shape, or in
     * Anthropic's (which has no code) a message naming what was passed.
     */
    boolean says(String code) {
        if (errorCode().equals(code)) {
            return true;
        }
        String message = json().path("error").path("message").asText("");
        return switch (code) {
            case "json_too_deep" -> message.contains("max_json_depth");
            case "json_too_large" -> message.contains("max_json_tokens") || message.contains("max_buffered_request_mb");
            case "request_too_large" -> message.contains("larger than the limit");
            case "request_timeout" -> message.contains("request_body_timeout_seconds");
            default -> false;
        };
    }

    private boolean inErrorShape(String path) {
        JsonNode root = json();
        JsonNode error = root.path("error");
        if (anthropic(path)) {
            return root.path("type").asText().equals("error") && error.path("type").isTextual() && error.path("message").isTextual();
        }
        return error.path("message").isTextual() && error.path("type").isTextual() && error.has("param") && error.has("code");
    }

    private JsonNode json() {
        try {
            JsonNode root = Json.parse(body.getBytes(StandardCharsets.UTF_8));
            return root == null ? MissingNode.getInstance() : root;
        } catch (IOException | RuntimeException e) {
            return MissingNode.getInstance();
        }
    }

    private static boolean anthropic(String path) {
        return path.startsWith("/v1/messages");
    }

    static String abbreviated(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "… (" + text.length() + " chars)";
    }
}
