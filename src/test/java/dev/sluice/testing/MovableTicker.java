package dev.sluice.testing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A monotonic ticker that runs with {@link System#nanoTime()} and that a test moves ahead:
 * what a gateway measures (deadlines, durations) keeps running, and what it lets age (a key
 * cache entry, an outage back-off) is past its lifetime the moment the test says so, instead
 * of after a sleep as long as that lifetime.
 */
public final class MovableTicker implements LongSupplier {
    private final AtomicLong ahead = new AtomicLong();

    /** Moves the ticker forward by {@code step}. */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("a monotonic ticker only moves forward: " + step);
        }
        ahead.addAndGet(step.toNanos());
    }

    @Override
    public long getAsLong() {
        return System.nanoTime() + ahead.get();
    }
}
