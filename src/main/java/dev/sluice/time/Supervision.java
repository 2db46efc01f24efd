package dev.sluice.time;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the gateway's background jobs wait and come back after a failure, passed in so that
 * tests run a job's rounds and restarts without sleeping and count them on their own.
 *
 * @param backoff  the wait before a failed job runs again
 * @param sleeper  how a wait is spent: a job's restart wait, and its wait between rounds
 * @param ticker   monotonic nanoseconds, to tell a failure in a row from one after a good run
 * @param restarts where restarts are counted
 */
public record Supervision(RestartBackoff backoff, Sleeper sleeper, LongSupplier ticker, JobRestarts restarts) {
    private static final Logger log = LoggerFactory.getLogger(Supervision.class);

    /** Spends a wait; interrupted, the job is being stopped. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration wait) throws InterruptedException;
    }

    /** Waits and readings from {@code time}, {@link RestartBackoff#DEFAULT}, and the process's restart count. */
    public static Supervision on(TimeSource time) {
        return new Supervision(RestartBackoff.DEFAULT, time::sleep, time.ticker(), JobRestarts.process());
    }

    /**
     * Counts a restart of {@code job} and says why, once per failure. Never throws: it runs
     * right after an {@code OutOfMemoryError}, when even building the line may fail again.
     */
    void failed(String job, int inARow, Duration restartIn, Throwable cause) {
        restarts.restarted(job);
        try {
            log.warn("background_job.failed job={} failures_in_a_row={} restart_in_ms={} reason=\"{}\"", job, inARow,
                    restartIn.toMillis(), cause.toString(), cause);
        } catch (Throwable again) {
            // Nothing more can be said now; the restart count still shows it.
        }
    }
}
