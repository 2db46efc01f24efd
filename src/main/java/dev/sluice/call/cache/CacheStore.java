package dev.sluice.call.cache;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the cache's entries live. Neither call ever fails: a store that cannot answer (Redis
 * down or slow) answers a read with nothing and drops a write, and says so in {@link #unavailable()}.
 * The futures complete on the context that called.
 */
public interface CacheStore extends AutoCloseable {

    /** {@code local} or {@code redis}, for metrics and the log. */
    String type();

    /** The entry under {@code key}, if there is one and the store could answer. */
    Future<Optional<byte[]>> get(String key);

    /** Stores {@code entry} under {@code key} for {@code ttl} (empty: as long as the store keeps it). */
    Future<Void> put(String key, byte[] entry, Optional<Duration> ttl);

    /** Reads and writes that the store could not make (unreachable, too slow), since start. */
    long unavailable();

    /** The entries held in this process and their weight in bytes; empty for a store that holds them elsewhere. */
    default Optional<Held> held() {
        return Optional.empty();
    }

    record Held(long entries, long bytes) {}

    @Override
    default void close() {}
}
