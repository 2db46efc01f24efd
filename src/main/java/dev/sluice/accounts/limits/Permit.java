package dev.sluice.accounts.limits;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An admitted call's place in its limits. Releasing it ends the call for the limits: the
 * in-flight counts come down and the call's tokens are added to the minute it ended in.
 * Only the first release counts; later ones (a stream's end racing its connection's close)
 * change nothing. Thread-safe.
 */
public final class Permit {

    /** How the end of a call is counted where it was admitted. */
    @FunctionalInterface
    public interface Ending {
        /** The call ended at {@code at} having used {@code tokensUsed}; called once. */
        void end(long tokensUsed, Instant at);
    }

    private final Ending ending;
    private final Clock clock;
    private final AtomicBoolean released = new AtomicBoolean();

    /** @param clock tells the minute a release happens in, which its tokens count towards */
    public Permit(Ending ending, Clock clock) {
        this.ending = ending;
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
        ending.end(tokensUsed, clock.instant());
        return true;
    }

    public boolean isReleased() {
        return released.get();
    }
}
