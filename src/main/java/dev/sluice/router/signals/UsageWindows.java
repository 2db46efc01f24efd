package dev.sluice.router.signals;

import io.vertx.core.Future;
import java.time.Instant;
import java.util.OptionalInt;

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

    /**
     * Counts one request in the minute that holds {@code at} only if the deployment has room
     * for it there: this minute's requests plus this one within {@code rpm}, and this minute's
     * tokens plus {@code promptTokens} within {@code tpm} (the rule of the capacity-aware
     * strategies). Atomic: however many claims race for the last place, one gets it. Completes
     * with whether the request was counted, on the calling Vert.x context when there is one;
     * never fails.
     */
    Future<Boolean> claim(String deploymentId, Instant at, OptionalInt rpm, OptionalInt tpm, int promptTokens);

    /** Whether a deployment that has used {@code used} has room for one more request of {@code promptTokens}. */
    static boolean hasRoom(Usage used, OptionalInt rpm, OptionalInt tpm, int promptTokens) {
        return (rpm.isEmpty() || used.requests() + 1 <= rpm.getAsInt())
                && (tpm.isEmpty() || used.tokens() + promptTokens <= tpm.getAsInt());
    }

    /** One minute's usage. */
    record Usage(long requests, long tokens) {
        public static final Usage NONE = new Usage(0, 0);
    }
}
