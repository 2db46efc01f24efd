package dev.sluice.time;

import java.time.Duration;

/**
 * How long a failed background job waits before it runs again: {@code first} after its first
 * failure, doubling with each failure that follows, never more than {@code max}.
 *
 * @param first the wait after one failure
 * @param max   the longest wait
 */
public record RestartBackoff(Duration first, Duration max) {
    /** One second, doubling to a minute: a job failing on every run costs a log line a minute. */
    public static final RestartBackoff DEFAULT = new RestartBackoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

    public RestartBackoff {
        if (!first.isPositive()) {
            throw new IllegalArgumentException("first: " + first + " (expected: > 0)");
        }
        if (max.compareTo(first) < 0) {
            throw new IllegalArgumentException("max: " + max + " (expected: >= first, " + first + ")");
        }
    }

    /** The wait after the {@code failures}-th failure in a row (1 for the first). */
    public Duration after(int failures) {
        Duration wait = first;
        for (int i = 1; i < failures && wait.compareTo(max) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(max) < 0 ? wait : max;
    }
}
