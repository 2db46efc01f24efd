package dev.sluice.ops.callbacks;

import dev.sluice.time.Backoff;
import dev.sluice.time.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Time and chance as callback delivery sees them, passed in so that tests run the retry
 * schedule on a fake clock with a seeded random source and assert each wait exactly.
 *
 * @param clock   what deadlines are read against
 * @param sleeper how a wait before a retry is spent
 * @param random  the jitter of each wait
 * @param backoff the waits between attempts (exponential with full jitter, honouring a
 *                receiver's {@code Retry-After})
 */
record Pacing(Clock clock, Sleeper sleeper, RandomGenerator random, Backoff backoff) {

    /** Spends a wait; an interrupted wait ends delivery of the batch. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration wait) throws InterruptedException;
    }

    /** The system's clock and sleep. */
    static Pacing system(RandomGenerator random, Backoff backoff) {
        TimeSource time = TimeSource.system();
        return new Pacing(time.clock(), time::sleep, random, backoff);
    }
}
