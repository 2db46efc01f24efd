package dev.sluice.store.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;

/**
 * Values to write to Redis, merged by key until a flush a few milliseconds after the first
 * ({@link FlushSoon}), which hands everything gathered to {@code write} at once: a write per
 * key per moment rather than one per request. Thread-safe.
 */
public final class GatheredWrites<V> {
    private final Map<String, V> gathered = new HashMap<>();
    private final BinaryOperator<V> merge;
    private final FlushSoon flush;

    /** @param write sends what gathered (never empty); runs on the link's event loop */
    public GatheredWrites(RedisLink link, BinaryOperator<V> merge, Consumer<Map<String, V>> write) {
        this.merge = merge;
        this.flush = new FlushSoon(link, FlushSoon.DEFAULT_DELAY, () -> {
            Map<String, V> due = drain();
            if (!due.isEmpty()) {
                write.accept(due);
            }
        });
    }

    /** Adds {@code value} to what is gathered under {@code key}; a flush is due within the delay. */
    public void add(String key, V value) {
        synchronized (gathered) {
            gathered.merge(key, value, merge);
        }
        flush.changed();
    }

    private Map<String, V> drain() {
        synchronized (gathered) {
            Map<String, V> due = new HashMap<>(gathered);
            gathered.clear();
            return due;
        }
    }
}
