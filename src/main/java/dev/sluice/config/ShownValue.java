package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * How a config value appears in a problem: as written where that is safe ({@code -1},
 * {@code "abc"}), by its kind for maps and lists (whose contents may be long or hold
 * credentials), and {@code ****} for a secret whatever it holds.
 *
 * <p>Text is quoted where it stands in for a number or a flag, so {@code "abc"} reads as
 * the wrong type; where text was expected and only its content is wrong it is shown bare
 * ({@code anthropic/claude-3}), as the reader wrote it.
 */
final class ShownValue {
    static final String SECRET = "****";

    private ShownValue() {}

    static String of(JsonNode value, boolean secret) {
        if (secret) {
            return SECRET;
        }
        if (value.isTextual()) {
            return TextNode.valueOf(value.textValue()).toString(); // JSON quoting escapes quotes and control characters
        }
        if (value.isObject()) {
            return value.isEmpty() ? "an empty map" : "a map";
        }
        if (value.isArray()) {
            return value.isEmpty() ? "an empty list" : "a list";
        }
        if (value.isMissingNode()) {
            return "missing";
        }
        if (value.isDouble() && !Double.isFinite(value.doubleValue())) {
            return Double.isNaN(value.doubleValue()) ? ".nan" : value.doubleValue() > 0 ? ".inf" : "-.inf"; // as YAML writes them
        }
        return value.asText(); // numbers, booleans, null
    }

    /** Like {@link #of}, but non-empty single-line text is shown without quotes. */
    static String text(JsonNode value) {
        if (value.isTextual() && !value.textValue().isEmpty() && value.textValue().chars().noneMatch(Character::isISOControl)) {
            return value.textValue();
        }
        return of(value, false);
    }
}
