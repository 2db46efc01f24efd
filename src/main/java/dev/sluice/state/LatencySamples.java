package dev.sluice.state;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Recent latency samples per deployment, newest last: seconds per output token for whole
 * answers, seconds to the first event for streams, a penalty for a timeout. Times come
 * from the caller's clock. Thread-safe.
 */
public interface LatencySamples {

    /** Adds a sample, keeping at most {@code maxSamples} per deployment. */
    void add(String deploymentId, Instant at, double seconds, int maxSamples);

    /** The samples no older than {@code ttl} at {@code now}, oldest first; empty when none. */
    List<Double> recent(String deploymentId, Instant now, Duration ttl);

    /**
     * The mean of the samples {@link #recent} returns, summed oldest first; empty when there
     * are none. Latency-based routing reads this for every candidate of every request, so a
     * store should answer it without building the list.
     */
    default OptionalDouble average(String deploymentId, Instant now, Duration ttl) {
        List<Double> recent = recent(deploymentId, now, ttl);
        if (recent.isEmpty()) {
            return OptionalDouble.empty();
        }
        double sum = 0;
        for (double sample : recent) {
            sum += sample;
        }
        return OptionalDouble.of(sum / recent.size());
    }
}
