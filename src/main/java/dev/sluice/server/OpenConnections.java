package dev.sluice.server;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections open on the gateway's port, counted over every event loop's server (they
 * share the port), against {@code general_settings.max_open_connections}.
 */
public final class OpenConnections {
    private final AtomicInteger open = new AtomicInteger();
    private final int max;

    public OpenConnections(int max) {
        this.max = max;
    }

    /** Counts one more connection, unless the bound is reached: then false, and nothing is counted. */
    boolean tryOpen() {
        while (true) {
            int now = open.get();
            if (now >= max) {
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void closed() {
        open.decrementAndGet();
    }

    public int count() {
        return open.get();
    }
}
