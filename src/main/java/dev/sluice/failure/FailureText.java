package dev.sluice.failure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.util.function.UnaryOperator;

/**
 * What a failed attempt says, in one line for a person: the upstream's own error message when
 * it answered ({@code answered 429: Rate limit reached}), else the readable cause Sluice gave
 * it ({@code connection refused}).
 */
public final class FailureText {
    /** What ends a message cut to its limit. */
    public static final String TRUNCATED = "... (truncated)";
    /** The most of a body that is not JSON that a message quotes. */
    private static final int QUOTED_BODY_CHARS = 1000;

    private FailureText() {}

    /** What {@code failed} says, whole. */
    public static String of(Failure failed) {
        return of(failed, UnaryOperator.identity());
    }

    /**
     * What {@code failed} says, with {@code mask} (which hides the deployment's keys) applied
     * to what the upstream wrote before any of it is cut: a key across the cut would no
     * longer be found, and its first part would be shown.
     */
    public static String of(Failure failed, UnaryOperator<String> mask) {
        if (!failed.answered()) {
            return mask.apply(failed.cause());
        }
        String message = "";
        try {
            JsonNode body = Json.parse(failed.body().getBytes());
            JsonNode text = body.path("error").path("message").isTextual() ? body.path("error").path("message") : body.path("message");
            message = text.isTextual() ? text.textValue() : body.path("error").isTextual() ? body.path("error").textValue() : "";
        } catch (IOException notJson) {
            message = cut(mask.apply(failed.body().toString()), QUOTED_BODY_CHARS);
        }
        String cause = mask.apply(message.isBlank() ? failed.cause() : message);
        return "answered " + failed.status() + (cause.isBlank() ? "" : ": " + cause);
    }

    /**
     * {@code whole} cut to {@code limit} characters (and the mark that says so). Whoever
     * masks a key in a message masks the whole message first: a key the cut went through
     * would no longer be found, and its first part would be shown.
     */
    public static String cut(String whole, int limit) {
        return whole.length() <= limit ? whole : whole.substring(0, limit) + TRUNCATED;
    }
}
