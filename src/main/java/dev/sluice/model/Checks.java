package dev.sluice.model;

import java.util.List;
import java.util.Objects;

/** The checks the model's compact constructors share; each message names the field. */
final class Checks {
    private Checks() {}

    static <T> T present(T value, String field) {
        return Objects.requireNonNull(value, () -> field + ": null (expected: a value)");
    }

    static long notNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + ": " + value + " (expected: >= 0)");
        }
        return value;
    }

    static String notBlank(String value, String field) {
        present(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + ": \"" + value + "\" (expected: a non-blank string)");
        }
        return value;
    }

    /** An unmodifiable copy of {@code values}, refusing a null list or a null element by its index. */
    static <T> List<T> listOf(List<T> values, String field) {
        present(values, field);
        for (int i = 0; i < values.size(); i++) {
            present(values.get(i), field + "[" + i + "]");
        }
        return List.copyOf(values);
    }
}
