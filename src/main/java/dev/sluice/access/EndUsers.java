package dev.sluice.access;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Which customer a call is made for, as LiteLLM reads it: the body's {@code user}, else its
 * {@code metadata.user}. A value that is not a non-blank string names no customer.
 */
public final class EndUsers {
    private EndUsers() {}

    public static Optional<String> of(ObjectNode body) {
        return text(body.get("user")).or(() -> text(body.path("metadata").get("user")));
    }

    private static Optional<String> text(JsonNode value) {
        return value != null && value.isTextual() && !value.textValue().isBlank() ? Optional.of(value.textValue()) : Optional.empty();
    }
}
