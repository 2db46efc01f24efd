package dev.sluice.keys;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An admitted call's place in its limits. Releasing it ends the call for the limits: the
 * in-flight counts come down and the call's tokens are added to the minute it ended in.
 * Only the first release counts; later ones (a stream's end racing its connection's close)
 * change nothing. Thread-safe.
 */
public final class Permit {
    private final List<MinuteMeter> meters;
    private final Clock clock;
    private final AtomicBoolean released = new AtomicBoolean();

    Permit(List<MinuteMeter> meters, Clock clock) {
        this.meters = List.copyOf(meters);
        this.clock = clock;
    }

    /**
     * Ends the call: {@code tokensUsed} (0 for a call that failed before any usage was known)
     * count towards {@code tpm} limits in the minute it is now. Returns whether this was the
     * release; false when the permit had already been released.
     */
    public boolean release(long tokensUsed) {
        if (tokensUsed < 0) {
            throw new IllegalArgumentException("tokensUsed: " + tokensUsed + " (expected: >= 0)");
        }
        if (!released.compareAndSet(false, true)) {
            return false;
        }
        long minute = MinuteMeter.minuteOf(clock.instant());
        for (MinuteMeter meter : meters) {
            meter.end(tokensUsed, minute);
        }
        return true;
    }

    public boolean isReleased() {
        return released.get();
    }
}
