package dev.sluice.router.harness;

import dev.sluice.time.TimeSource;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The router's time in a test: a wall clock and a monotonic ticker that move together, by
 * exactly what a test (or a {@link FakeDelays} wait, or a scripted attempt) tells them, and
 * never by themselves. Time is kept in nanoseconds since {@link #START}, so a boundary can be
 * met to the nanosecond.
 */
public final class FakeTime {
    /** Where the clock starts: the first instant of a calendar minute, as usage windows count them. */
    public static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

    /** The ticker's reading at {@link #START}: monotonic time has no epoch, so not 0. */
    private static final long TICKER_AT_START = 1_000_000_000_000L;

    private final AtomicLong elapsedNanos = new AtomicLong();
    private final Clock clock = new Moving(ZoneOffset.UTC);

    /** Moves the clock and the ticker forward by {@code step}, which must not be negative. */
    public void advance(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("step: " + step + " (expected: >= 0; time never runs back)");
        }
        elapsedNanos.addAndGet(step.toNanos());
    }

    /** Moves time forward to {@code sinceStart} after {@link #START}, which must not be in the past. */
    public void advanceTo(Duration sinceStart) {
        advance(sinceStart.minus(elapsed()));
    }

    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos.get());
    }

    public Instant now() {
        return START.plusNanos(elapsedNanos.get());
    }

    public Clock clock() {
        return clock;
    }

    public LongSupplier ticker() {
        return () -> TICKER_AT_START + elapsedNanos.get();
    }

    public TimeSource source() {
        return new TimeSource(clock, ticker());
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

    /** The wall clock over the shared elapsed time; clocks in other zones share it too. */
    private final class Moving extends Clock {
        private final ZoneId zone;

        Moving(ZoneId zone) {
            this.zone = zone;
        }

        @Override
        public Instant instant() {
            return now();
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId newZone) {
            return new Moving(newZone);
        }
    }
}
