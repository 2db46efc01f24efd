package dev.sluice.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for something another thread brings about in its own time, such as a writer thread
 * replaying rows once its database is back: checks every few milliseconds, and fails naming
 * what was awaited when the time is up.
 */
public final class Eventually {
    private Eventually() {}

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
    }
}
