package dev.sluice.time;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The gateway's one source of time, passed in from the composition root: a wall clock for
 * what is dated (bench ends, budget periods, key expiry, calendar-minute windows) and a
 * monotonic ticker for what is measured (deadlines, durations, cache ages). Tests pass a
 * fake of either and advance it instead of sleeping.
 *
 * @param clock  wall-clock time
 * @param ticker monotonic nanoseconds, as {@link System#nanoTime()} counts them
 */
public record TimeSource(Clock clock, LongSupplier ticker) {

    /** The system's clock (UTC) and {@link System#nanoTime()}. */
    public static TimeSource system() {
        return new TimeSource(Clock.systemUTC(), System::nanoTime);
    }

    public Instant now() {
        return clock.instant();
    }

    public long nanos() {
        return ticker.getAsLong();
    }
}
