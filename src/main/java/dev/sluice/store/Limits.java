package dev.sluice.store;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** Checks and conversions for the optional counts of the records: rpm, tpm, parallel calls. */
final class Limits {
    private Limits() {}

    static void check(String field, OptionalLong limit) {
        Objects.requireNonNull(limit, field);
        if (limit.isPresent() && limit.getAsLong() < 0) {
            throw new IllegalArgumentException(field + ": " + limit.getAsLong() + " (expected: >= 0)");
        }
    }

    static void check(String field, OptionalInt limit) {
        Objects.requireNonNull(limit, field);
        if (limit.isPresent() && limit.getAsInt() < 0) {
            throw new IllegalArgumentException(field + ": " + limit.getAsInt() + " (expected: >= 0)");
        }
    }

    static OptionalLong optional(Long value) {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    static OptionalInt optional(Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    static Long boxed(OptionalLong value) {
        return value.isPresent() ? value.getAsLong() : null;
    }

    static Integer boxed(OptionalInt value) {
        return value.isPresent() ? value.getAsInt() : null;
    }
}
