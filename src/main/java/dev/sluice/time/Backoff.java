package dev.sluice.time;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The wait before a deployment is tried again in place: exponential with full jitter (a
 * random wait between 0 and {@code initial × 2^repeat}, at most {@code max}), so callers
 * that failed together do not come back together; or what the upstream's
 * {@code Retry-After} asked for, up to {@code maxRetryAfter}, when that is longer.
 * A sibling failover never waits.
 */
public record Backoff(Duration initial, Duration max, Duration maxRetryAfter) {

    /** The OpenAI SDKs' own numbers: 0.5 s doubling up to 8 s; Retry-After honoured up to 60 s. */
    public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(60));

    /**
     * @param repeat how many times this deployment has already been repeated in this request
     *               (0 for the first repeat)
     */
    public Duration delay(int repeat, Optional<Duration> retryAfter, RandomGenerator random) {
        long ceiling = initial.toMillis() << Math.min(repeat, 20);
        ceiling = Math.min(Math.max(ceiling, 0), max.toMillis());
        long jittered = ceiling == 0 ? 0 : random.nextLong(ceiling + 1);
        Duration wait = Duration.ofMillis(jittered);
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get().compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter.get();
            if (asked.compareTo(wait) > 0) {
                wait = asked;
            }
        }
        return wait;
    }
}
