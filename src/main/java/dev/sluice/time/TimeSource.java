package dev.sluice.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The gateway's one source of time, passed in from the composition root: a wall clock for
 * what is dated (bench ends, budget periods, key expiry, calendar-minute windows), a
 * monotonic ticker for what is measured (deadlines, durations, cache ages), and a waiter
 * for what waits (background jobs between rounds). Tests pass a fake of each and advance it
 * instead of sleeping: a fake's waiter ends a wait when the test moves its ticker past it.
 *
 * @param clock  wall-clock time
 * @param ticker monotonic nanoseconds, as {@link System#nanoTime()} counts them
 * @param waiter how a thread waits until the ticker reads a given value
 */
public record TimeSource(Clock clock, LongSupplier ticker, Waiter waiter) {
    /** How often a waiter over a ticker it cannot be told about looks at it again. */
    static final Duration POLL = Duration.ofMillis(100);

    /** Blocks the calling thread until the ticker reaches a reading. */
    @FunctionalInterface
    public interface Waiter {
        /** Returns once the ticker reads {@code untilNanos} or more; interrupted, throws. */
        void awaitTicker(long untilNanos) throws InterruptedException;
    }

    /**
     * {@code clock} and {@code ticker}, with a waiter that looks at {@code ticker} at least
     * every {@link #POLL}: for a ticker that moves by itself, or one a test moves without
     * telling the waits.
     */
    public TimeSource(Clock clock, LongSupplier ticker) {
        this(clock, ticker, polling(ticker));
    }

    /** The system's clock (UTC), {@link System#nanoTime()}, and waits that sleep. */
    public static TimeSource system() {
        return new TimeSource(Clock.systemUTC(), System::nanoTime, until -> {
            long left;
            while ((left = until - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
        });
    }

    public Instant now() {
        return clock.instant();
    }

    public long nanos() {
        return ticker.getAsLong();
    }

    /** Waits {@code wait} by the ticker; interrupted before or during it, throws. */
    public void sleep(Duration wait) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (wait.isPositive()) {
            waiter.awaitTicker(nanos() + wait.toNanos());
        }
    }

    private static Waiter polling(LongSupplier ticker) {
        return until -> {
            long left;
            while ((left = until - ticker.getAsLong()) > 0) {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, POLL.toNanos()));
            }
        };
    }
}
