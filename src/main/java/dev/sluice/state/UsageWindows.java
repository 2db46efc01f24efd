package dev.sluice.state;

import java.time.Instant;

/**
 * Requests and tokens each deployment served in the current minute (the calendar minute
 * that holds {@code now}, as LiteLLM counts {@code rpm}/{@code tpm}). Times come from the
 * caller's clock. Thread-safe.
 */
public interface UsageWindows {

    /** Adds to the minute that holds {@code at}. */
    void record(String deploymentId, Instant at, int requests, long tokens);

    /** The deployment's usage in the minute that holds {@code now}. */
    Usage current(String deploymentId, Instant now);

    /** One minute's usage. */
    record Usage(long requests, long tokens) {
        public static final Usage NONE = new Usage(0, 0);
    }
}
