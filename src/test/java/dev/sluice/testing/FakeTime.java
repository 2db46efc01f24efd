package dev.sluice.testing;

import dev.sluice.time.JobRestarts;
import dev.sluice.time.RestartBackoff;
import dev.sluice.time.Scheduler;
import dev.sluice.time.Supervision;
import dev.sluice.time.TimeSource;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Time in a test: a wall clock (a {@link FakeClock}) and a monotonic ticker that move together,
 * by exactly what the test tells them, and never by themselves; and a waiter that ends every
 * wait a move carries past. Time is kept in nanoseconds since {@link #START}, so a boundary can
 * be met to the nanosecond. A test of what waits uses {@link #awaitWaiting} to know the threads
 * it drives are waiting before it moves time; nothing here sleeps.
 */
public final class FakeTime {
    /** Where the clock starts: the first instant of a calendar minute, as usage windows count them. */
    public static final Instant START = FakeClock.START;

    /** The ticker's reading at {@link #START}: monotonic time has no epoch, so not 0. */
    private static final long TICKER_AT_START = 1_000_000_000_000L;

    private final FakeClock clock = new FakeClock(START);
    private final Object moved = new Object();
    /** Nanoseconds since {@link #START}; written under {@link #moved}. */
    private volatile long elapsedNanos;
    /** Where each waiting thread's wait ends, as ticker readings; guarded by {@link #moved}. */
    private final List<Long> waits = new ArrayList<>();

    /** Moves the clock and the ticker forward by {@code step}, which must not be negative, and wakes every wait to look again. */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("step: " + step + " (expected: >= 0; time never runs back)");
        }
        synchronized (moved) {
            elapsedNanos += step.toNanos();
            clock.advance(step);
            moved.notifyAll();
        }
    }

    /** Moves time forward to {@code sinceStart} after {@link #START}, which must not be in the past. */
    public void advanceTo(Duration sinceStart) {
        advance(sinceStart.minus(elapsed()));
    }

    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos);
    }

    public Instant now() {
        return clock.instant();
    }

    public FakeClock clock() {
        return clock;
    }

    public LongSupplier ticker() {
        return () -> TICKER_AT_START + elapsedNanos;
    }

    /** The source a gateway part reads and waits on: a wait ends when the test moves time past it. */
    public TimeSource source() {
        return new TimeSource(clock, ticker(), this::awaitTicker);
    }

    /**
     * Background jobs on this time: each round and each restart wait ends when the test moves
     * time past it; a failed job comes back after {@link RestartBackoff#DEFAULT}, counted in {@code restarts}.
     */
    public Scheduler scheduler(JobRestarts restarts) {
        TimeSource source = source();
        return new Scheduler(new Supervision(RestartBackoff.DEFAULT, source::sleep, source.ticker(), restarts));
    }

    /**
     * Blocks until at least {@code threads} threads wait for a time still to come (at most ten
     * seconds): a wait the last move ended does not count, its thread has yet to wake.
     */
    public void awaitWaiting(int threads) throws InterruptedException {
        synchronized (moved) {
            long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (waits.stream().filter(until -> until > ticker().getAsLong()).count() < threads) {
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("threads waiting for a time to come: " + waits + " at "
                            + ticker().getAsLong() + ", expected " + threads);
                }
                moved.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Milliseconds since {@link #START}, with the nanoseconds after the point only when there are any: {@code 250}, {@code 1999.999999}. */
    public String stamp() {
        return millis(elapsed());
    }

    /** {@code at} as milliseconds since {@link #START}, written like {@link #stamp()}. */
    public static String sinceStart(Instant at) {
        return millis(Duration.between(START, at));
    }

    /** A duration in milliseconds, with the nanoseconds after the point only when there are any. */
    public static String millis(Duration d) {
        return BigDecimal.valueOf(d.toNanos(), 6).stripTrailingZeros().toPlainString();
    }

    private void awaitTicker(long until) throws InterruptedException {
        synchronized (moved) {
            Long wait = until;
            waits.add(wait);
            moved.notifyAll();
            try {
                while (ticker().getAsLong() < until) {
                    moved.wait();
                }
            } finally {
                waits.remove(wait);
            }
        }
    }
}
