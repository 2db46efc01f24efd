package dev.sluice.ops.callbacks;

import dev.sluice.time.Backoff;
import dev.sluice.time.TimeSource;
import java.time.Clock;
import java.util.random.RandomGenerator;

/**
 * Time and chance as callback delivery sees them, passed in so that tests run the retry
 * schedule on fake time with a seeded random source and assert each wait exactly.
 *
 * @param time    what deadlines are read against, and how every wait is spent: for a first
 *                record, for a batch to fill, before a retry
 * @param random  the jitter of each wait
 * @param backoff the waits between attempts (exponential with full jitter, honouring a
 *                receiver's {@code Retry-After})
 */
public record Pacing(TimeSource time, RandomGenerator random, Backoff backoff) {

    /** The wall clock deadlines are read against. */
    public Clock clock() {
        return time.clock();
    }
}
