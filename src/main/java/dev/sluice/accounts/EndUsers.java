package dev.sluice.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.ApiError;
import java.util.Optional;

/**
 * Which customer a call is made for, as LiteLLM reads it: the body's {@code user}, else its
 * {@code metadata.user}. A value that is not a non-blank string names no customer.
 */
public final class EndUsers {
    /** The longest end user id, in characters: what a customer's {@code user_id} column holds. */
    static final int MAX_LENGTH = 255;

    private EndUsers() {}

    /** The 400 for an end user no customer could be: longer than a customer's id may be. */
    static Optional<ApiError> refusal(Optional<String> endUser) {
        if (endUser.isEmpty() || endUser.get().length() <= MAX_LENGTH) {
            return Optional.empty();
        }
        return Optional.of(ApiError.invalidRequest("Invalid 'user': " + endUser.get().length() + " characters (expected: at most "
                + MAX_LENGTH + ", the longest customer id).", "user", "invalid_value"));
    }

    public static Optional<String> of(ObjectNode body) {
        return text(body.get("user")).or(() -> text(body.path("metadata").get("user")));
    }

    private static Optional<String> text(JsonNode value) {
        return value != null && value.isTextual() && !value.textValue().isBlank() ? Optional.of(value.textValue()) : Optional.empty();
    }
}
