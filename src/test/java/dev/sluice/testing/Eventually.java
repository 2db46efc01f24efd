package dev.sluice.testing;

import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition another thread or process brings about in its own time (a bench
 * reaching the other replica, a hang-up seen by the server, a row written once the database
 * is back), never for a length of time: checks every few milliseconds and returns as soon
 * as it holds, and fails naming what was awaited when the time is up. The timeout is only
 * a bound on a broken run, so generous ones cost nothing on a healthy machine.
 */
public final class Eventually {
    /** How long a check waits before it looks again. */
    private static final Duration POLL = Duration.ofMillis(10);

    private Eventually() {}

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        value(what, timeout, () -> condition.getAsBoolean() ? Optional.of(true) : Optional.empty());
    }

    /** Waits until {@code actual} is {@code expected}; the failure names the last value seen. */
    public static void equal(String what, IntSupplier actual, int expected) {
        int[] last = {actual.getAsInt()};
        try {
            until(what + " = " + expected, Duration.ofSeconds(5), () -> (last[0] = actual.getAsInt()) == expected);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (was " + last[0] + ")", e);
        }
    }

    /** Waits until {@code probe} finds something, and returns it. */
    public static <T> T value(String what, Duration timeout, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<T> found = probe.get();
            if (found.isPresent()) {
                return found.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            try {
                // The one real wait of a poll: the pause between two looks at the condition.
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
    }
}
