package dev.sluice.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A clock that throws an {@code OutOfMemoryError} the first time it is read (or the first
 * time after {@link #arm}), then reads another: for a background job whose round begins by
 * reading the time, one round that dies as a full heap would make it die.
 */
public final class FailingOnceClock extends Clock {
    private final Clock clock;
    private final AtomicBoolean armed;
    private final AtomicBoolean failed;
    /** Only a read made by this class (anywhere in the reading thread's stack) fails; null for any. */
    private final Class<?> reader;

    /** Fails its first read. */
    public FailingOnceClock(Clock clock) {
        this(clock, new AtomicBoolean(true), new AtomicBoolean(), null);
    }

    private FailingOnceClock(Clock clock, AtomicBoolean armed, AtomicBoolean failed, Class<?> reader) {
        this.clock = clock;
        this.armed = armed;
        this.failed = failed;
        this.reader = reader;
    }

    /** Reads {@code clock} until {@link #arm} is called. */
    public static FailingOnceClock disarmed(Clock clock) {
        return new FailingOnceClock(clock, new AtomicBoolean(), new AtomicBoolean(), null);
    }

    /** Fails the first read {@code reader} makes: for a clock a whole gateway reads. */
    public static FailingOnceClock whenReadBy(Clock clock, Class<?> reader) {
        return new FailingOnceClock(clock, new AtomicBoolean(true), new AtomicBoolean(), reader);
    }

    /** Fails the next read. */
    public void arm() {
        armed.set(true);
    }

    /** Whether the clock has thrown its error yet. */
    public boolean failed() {
        return failed.get();
    }

    @Override
    public Instant instant() {
        if (armed.get() && readByReader() && failed.compareAndSet(false, true)) {
            throw TestSupervision.outOfMemory();
        }
        return clock.instant();
    }

    private boolean readByReader() {
        return reader == null || StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.anyMatch(frame -> frame.getDeclaringClass() == reader));
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return clock.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new FailingOnceClock(clock.withZone(zone), armed, failed, reader);
    }
}
