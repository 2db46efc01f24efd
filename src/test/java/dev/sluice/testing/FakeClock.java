package dev.sluice.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it. Safe to read from any thread; clocks
 * made by {@link #withZone} share the same time.
 */
public final class FakeClock extends Clock {
    /** Where a new fake clock starts: a fixed, unremarkable instant. */
    public static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    public FakeClock() {
        this(START);
    }

    public FakeClock(Instant start) {
        this(new AtomicReference<>(start), ZoneOffset.UTC);
    }

    private FakeClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** Moves the clock forward by {@code step} (or back, when it is negative). */
    public FakeClock advance(Duration step) {
        now.updateAndGet(t -> t.plus(step));
        return this;
    }

    /** Moves the clock to {@code instant}. */
    public FakeClock set(Instant instant) {
        now.set(instant);
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId newZone) {
        return newZone.equals(zone) ? this : new FakeClock(now, newZone);
    }
}
