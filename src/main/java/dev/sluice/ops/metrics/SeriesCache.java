package dev.sluice.ops.metrics;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;

/**
 * The children of one metric family (a counter's or histogram's series) by one or two of their
 * label values, made on first sight and then found without allocating: the request path counts
 * through these instead of the library's {@code labelValues(String...)}, which builds a key list
 * on every call. Thread-safe; two threads racing on a first sight get the same child, since
 * the family hands out one child per label set.
 */
final class SeriesCache<T> {
    private final ConcurrentMap<String, ConcurrentMap<String, T>> children = new ConcurrentHashMap<>();
    private final BiFunction<String, String, T> child;

    /** @param child the family's child for two label values (the second is {@code ""} when the family has one label) */
    SeriesCache(BiFunction<String, String, T> child) {
        this.child = child;
    }

    /** The child of a family with one label. */
    T get(String value) {
        return get(value, "");
    }

    T get(String first, String second) {
        ConcurrentMap<String, T> byFirst = children.get(first);
        if (byFirst == null) {
            byFirst = children.computeIfAbsent(first, unused -> new ConcurrentHashMap<>());
        }
        T found = byFirst.get(second);
        return found != null ? found : byFirst.computeIfAbsent(second, value -> child.apply(first, value));
    }
}
