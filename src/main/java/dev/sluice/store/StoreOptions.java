package dev.sluice.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How the store's connection pool behaves.
 *
 * @param connectionTimeout longest wait for a connection, including connecting to the
 *                          server: an unreachable database fails an operation after this
 *                          long instead of holding its caller (at least 250 ms)
 * @param maxPoolSize       most connections open at once, unless the PostgreSQL URL sets
 *                          {@code connection_limit}
 */
public record StoreOptions(Duration connectionTimeout, int maxPoolSize) {
    private static final Duration MIN_TIMEOUT = Duration.ofMillis(250);

    public static final StoreOptions DEFAULTS = new StoreOptions(Duration.ofSeconds(5), 10);

    public StoreOptions {
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        if (connectionTimeout.compareTo(MIN_TIMEOUT) < 0) {
            throw new IllegalArgumentException("connectionTimeout: " + connectionTimeout + " (expected: >= 250 ms)");
        }
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("maxPoolSize: " + maxPoolSize + " (expected: >= 1)");
        }
    }

    public StoreOptions withConnectionTimeout(Duration timeout) {
        return new StoreOptions(timeout, maxPoolSize);
    }

    public StoreOptions withMaxPoolSize(int size) {
        return new StoreOptions(connectionTimeout, size);
    }
}
