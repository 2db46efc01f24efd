package dev.sluice.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * For tests whose counts live in real Redis, or in another process, per UTC calendar minute
 * (rpm limits, usage windows): a burst that straddled two minutes would be counted twice, and
 * no fake clock reaches a store or a process that reads the system's own time.
 */
public final class CalendarMinutes {
    private CalendarMinutes() {}

    /**
     * Returns at once when at least {@code spare} of the current minute is left; else waits
     * until the next minute has begun.
     */
    public static void awayFromTheEnd(Duration spare) {
        Instant now = Instant.now();
        Instant nextMinute = now.truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
        Duration left = Duration.between(now, nextMinute);
        if (left.compareTo(spare) >= 0) {
            return;
        }
        try {
            // A real wait: the window the counts fall in is the system's own calendar minute.
            Thread.sleep(left.plusMillis(100));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the next minute", e);
        }
    }
}
