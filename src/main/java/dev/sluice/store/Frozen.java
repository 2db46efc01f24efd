package dev.sluice.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Unmodifiable copies for the records' fields, in the order they were given. */
final class Frozen {
    private Frozen() {}

    static List<String> list(String field, List<String> values) {
        Objects.requireNonNull(values, field);
        for (String value : values) {
            Objects.requireNonNull(value, () -> field + " holds null");
        }
        return List.copyOf(values);
    }

    static <V> Map<String, V> map(String field, Map<String, V> values) {
        Objects.requireNonNull(values, field);
        values.forEach((key, value) -> {
            Objects.requireNonNull(key, () -> field + " holds a null key");
            Objects.requireNonNull(value, () -> field + "." + key + " is null");
        });
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    static Map<String, Long> limits(String field, Map<String, Long> values) {
        Map<String, Long> copy = map(field, values);
        copy.forEach((group, limit) -> {
            if (limit < 0) {
                throw new IllegalArgumentException(field + "." + group + ": " + limit + " (expected: >= 0)");
            }
        });
        return copy;
    }

    /** A deep copy; {@code null} reads as an empty object. */
    static ObjectNode object(ObjectNode value) {
        return value == null ? JsonNodeFactory.instance.objectNode() : value.deepCopy();
    }
}
