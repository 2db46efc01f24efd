package dev.sluice.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.time.BudgetDuration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads typed values out of a key or team API body. A value of the wrong type or out of
 * range is refused with a 400 naming its path, the value and the rule, e.g.
 * {@code Invalid 'max_budget': -1 (expected: a number >= 0).}, so no bad input reaches the
 * store (where it would fail as a fault, not as the caller's mistake).
 */
public final class JsonFields {
    /** Ids, aliases and names: what the store's {@code VARCHAR(255)} columns hold. */
    public static final int MAX_NAME_LENGTH = 255;
    /** Dollar amounts must stay below this to fit the store's {@code NUMERIC(30, 12)}. */
    private static final BigDecimal DOLLAR_CEILING = BigDecimal.TEN.pow(18);
    private static final int SHOWN_LENGTH = 60;

    private JsonFields() {}

    /** Reads a value found at {@code path}; never given null. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(JsonNode value, String path);
    }

    /**
     * When {@code body} has {@code field}, hands {@code set} its value read by {@code read},
     * or null when the field is JSON {@code null} (which clears a setting). An absent field
     * leaves the setting as it was.
     */
    public static <T> void ifPresent(ObjectNode body, String field, Reader<T> read, Consumer<T> set) {
        JsonNode value = body.get(field);
        if (value == null) {
            return;
        }
        set.accept(value.isNull() ? null : read.read(value, field));
    }

    /** The field's value, refused as missing when absent or null. */
    public static JsonNode required(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        return value;
    }

    /** An id, alias or name: a non-blank string of at most 255 characters, no control characters. */
    public static String name(JsonNode value, String path) {
        if (!value.isTextual()) {
            throw invalidType(path, value, "a string");
        }
        String text = value.textValue();
        if (text.isBlank() || text.length() > MAX_NAME_LENGTH || text.chars().anyMatch(Character::isISOControl)) {
            throw invalid(path, value, "a non-blank string of at most " + MAX_NAME_LENGTH + " characters, without control characters");
        }
        return text;
    }

    /**
     * A list of ids, each read as {@link #name} reads one: an id longer than the store's
     * column, or holding control characters, is the caller's mistake, not a failed write.
     */
    public static List<String> ids(JsonNode value, String path) {
        if (!value.isArray()) {
            throw invalidType(path, value, "a list of strings");
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            ids.add(name(value.get(i), path + "[" + i + "]"));
        }
        return ids;
    }

    /** A list of non-blank strings, e.g. model groups. */
    public static List<String> names(JsonNode value, String path) {
        if (!value.isArray()) {
            throw invalidType(path, value, "a list of strings");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            JsonNode item = value.get(i);
            if (!item.isTextual() || item.textValue().isBlank()) {
                throw invalid(path + "[" + i + "]", item, "a non-blank string");
            }
            names.add(item.textValue());
        }
        return names;
    }

    /** Dollars: a number from 0 up to (not including) 10^18. */
    public static BigDecimal dollars(JsonNode value, String path) {
        if (!value.isNumber()) {
            throw invalidType(path, value, "a number >= 0");
        }
        if (value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue())) {
            throw invalid(path, value, "a finite number >= 0");
        }
        BigDecimal amount = value.decimalValue();
        if (amount.signum() < 0 || amount.compareTo(DOLLAR_CEILING) >= 0) {
            throw invalid(path, value, "a number >= 0 and below 1e18");
        }
        return amount;
    }

    /** A limit such as requests or tokens per minute: a whole number >= 0. */
    public static long count(JsonNode value, String path) {
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw invalid(path, value, "a whole number >= 0");
        }
        return value.longValue();
    }

    /** A whole number >= 0 small enough for an int, such as a count of parallel calls. */
    public static int smallCount(JsonNode value, String path) {
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 0) {
            throw invalid(path, value, "a whole number from 0 to " + Integer.MAX_VALUE);
        }
        return value.intValue();
    }

    public static boolean bool(JsonNode value, String path) {
        if (!value.isBoolean()) {
            throw invalidType(path, value, "true or false");
        }
        return value.booleanValue();
    }

    public static ObjectNode object(JsonNode value, String path) {
        if (!(value instanceof ObjectNode object)) {
            throw invalidType(path, value, "a JSON object");
        }
        return object.deepCopy();
    }

    /** A period as LiteLLM writes them ({@code 30s}, {@code 30m}, {@code 30h}, {@code 30d}, {@code 1mo}). */
    public static BudgetDuration duration(JsonNode value, String path) {
        if (!value.isTextual()) {
            throw invalidType(path, value, BudgetDuration.EXPECTED);
        }
        try {
            return BudgetDuration.parse(path, value.textValue());
        } catch (IllegalArgumentException e) {
            throw invalid(path, value, BudgetDuration.EXPECTED);
        }
    }

    public static ApiError missing(String path) {
        return ApiError.invalidRequest("Missing required parameter: '" + path + "'.", path, "missing_required_parameter");
    }

    /** A value of the right type that breaks the field's rule. */
    public static ApiError invalid(String path, JsonNode got, String expected) {
        return ApiError.invalidRequest("Invalid '" + path + "': " + shown(got) + " (expected: " + expected + ").", path,
                "invalid_value");
    }

    /** A value of the wrong JSON type. */
    public static ApiError invalidType(String path, JsonNode got, String expected) {
        return ApiError.invalidRequest("Invalid '" + path + "': " + shown(got) + " (expected: " + expected + ").", path,
                "invalid_type");
    }

    /** The value as JSON, cut short: enough to recognise it, never a whole pasted document. */
    public static String shown(JsonNode value) {
        String text = value.toString();
        return text.length() <= SHOWN_LENGTH ? text : text.substring(0, SHOWN_LENGTH) + "...";
    }
}
