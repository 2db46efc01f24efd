package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.failure.FailureClassifier;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamErrors;
import dev.sluice.vendors.gemini.wire.GeminiBlocked;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Google's API errors, {@code {"error":{"code","message","status","details"}}}, as Google AI
 * Studio and Vertex AI send them: classified into the failure taxonomy and rewritten in
 * OpenAI's shape with Google's message kept. The status decides as for any upstream (429
 * {@code RESOURCE_EXHAUSTED} is rate limited, 500 {@code INTERNAL} and 503 {@code UNAVAILABLE}
 * server, 401/403 auth, 404 not found), with three readings of the body: a 429's wait comes
 * from its {@code google.rpc.RetryInfo} when no header gives one, a 400 {@code INVALID_ARGUMENT}
 * saying the input "exceeds the maximum number of tokens" is a context-window refusal, and a
 * 400 for an invalid API key is an auth failure.
 */
public final class GoogleErrors {
    private static final String RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";
    private static final Pattern SECONDS = Pattern.compile("(\\d+(?:\\.\\d+)?)s");
    private static final String TOKEN_LIMIT = "exceeds the maximum number of tokens";

    /** Google's errors as an adapter names them. */
    public static final UpstreamErrors ERRORS = new UpstreamErrors(GoogleErrors::classify, GoogleErrors::normalise);

    private GoogleErrors() {}

    public static Failure classify(int status, Buffer body, MultiMap headers, Instant now) {
        Failure failure = FailureClassifier.fromAnswer(status, body, headers, now);
        JsonNode error = errorOf(body);
        if (status == 429 && failure.retryAfter().isEmpty()) {
            Optional<Duration> wait = retryDelay(error);
            if (wait.isPresent()) {
                return new Failure(failure.kind(), status, body, wait, failure.cause(), failure.headers());
            }
        }
        if (status == 400 && badKey(error)) {
            return new Failure(FailureClass.AUTH, status, body, failure.retryAfter(), failure.cause(), failure.headers());
        }
        if (status == 400 && error.path("message").asText("").toLowerCase(Locale.ROOT).contains(TOKEN_LIMIT)) {
            return new Failure(FailureClass.CONTEXT_WINDOW, status, body, failure.retryAfter(), failure.cause(), failure.headers());
        }
        return failure;
    }

    /** An error answer in OpenAI's shape: Google's message, its status word as the code. */
    public static ObjectNode normalise(int status, Buffer body) {
        JsonNode error = errorOf(body);
        if (!error.path("message").isTextual() || !(error.has("status") || error.path("code").isInt())) {
            return OpenAiShape.error(status, body); // not Google's shape: an OpenAI-shaped refusal of Sluice's own, or text
        }
        String message = error.get("message").textValue();
        String code = message.toLowerCase(Locale.ROOT).contains(TOKEN_LIMIT) && status == 400
                ? "context_length_exceeded" : error.path("status").asText(null);
        ObjectNode shaped = ErrorBodies.node(message, OpenAiShape.typeFor(status), null, code);
        ((ObjectNode) shaped.get("error")).put("upstream_status", status);
        return shaped;
    }

    /**
     * Gemini's refusal of a prompt, which it answers with a 200: a content-policy failure
     * carrying an OpenAI-shaped 400, so {@code content_policy_fallbacks} apply and, when none
     * is left, the caller is told why.
     */
    public static Failure blocked(GeminiBlocked blocked) {
        Buffer body = Json.buffer(ErrorBodies.node(blocked.getMessage(), "invalid_request_error", null,
                "content_policy_violation"));
        return new Failure(FailureClass.CONTENT_POLICY, 400, body, Optional.empty(), blocked.getMessage());
    }

    /**
     * Google AI Studio answers a key it does not know with a 400 {@code INVALID_ARGUMENT}
     * whose {@code ErrorInfo} reason is {@code API_KEY_INVALID} ("API key not valid"), which
     * LiteLLM, too, reads as an authentication failure.
     */
    static boolean badKey(JsonNode error) {
        for (JsonNode detail : error.path("details")) {
            if ("API_KEY_INVALID".equals(detail.path("reason").asText())) {
                return true;
            }
        }
        return error.path("message").asText("").contains("API key not valid");
    }

    /** {@code details[].retryDelay} of a {@code RetryInfo}, e.g. {@code "37s"} or {@code "0.5s"}. */
    static Optional<Duration> retryDelay(JsonNode error) {
        for (JsonNode detail : error.path("details")) {
            if (RETRY_INFO.equals(detail.path("@type").asText())) {
                Matcher seconds = SECONDS.matcher(detail.path("retryDelay").asText(""));
                if (seconds.matches()) {
                    return Optional.of(Duration.ofMillis((long) Math.ceil(Double.parseDouble(seconds.group(1)) * 1000)));
                }
            }
        }
        return Optional.empty();
    }

    /** The {@code error} object of a Google error body (a bare array of one, as some endpoints send, too). */
    static JsonNode errorOf(Buffer body) {
        try {
            JsonNode root = body.length() == 0 ? null : Json.parse(body.getBytes());
            if (root != null && root.isArray()) {
                root = root.path(0);
            }
            return root == null ? Json.MAPPER.missingNode() : root.path("error");
        } catch (IOException e) {
            return Json.MAPPER.missingNode();
        }
    }
}
