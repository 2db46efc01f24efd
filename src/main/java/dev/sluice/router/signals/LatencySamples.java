package dev.sluice.router.signals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Recent latency samples per deployment, in two {@link LatencySeries series}, newest last:
 * seconds per output token for whole answers, seconds to the first event for streams (a
 * timeout is a penalty sample in each). Times come from the caller's clock. Thread-safe.
 *
 * <p>A deployment's two series are one entry of the store, named by the deployment's id
 * alone, and the series is an argument rather than part of the name: the in-memory store
 * finds both with one look-up, and a shared one can keep them as two fields of one key (a
 * Redis hash per deployment, say). Each series keeps its own samples, its own bound and its
 * own expiry; a sample added to one is never read from the other.
 */
public interface LatencySamples {

    /** Adds a sample to one series, keeping at most {@code maxSamples} in that series. */
    void add(String deploymentId, LatencySeries series, Instant at, double seconds, int maxSamples);

    /** The samples of one series no older than {@code ttl} at {@code now}, oldest first; empty when none. */
    List<Double> recent(String deploymentId, LatencySeries series, Instant now, Duration ttl);

    /**
     * The mean of the samples {@link #recent} returns, summed oldest first; empty when there
     * are none. Latency-based routing reads this for every candidate of every request, so a
     * store should answer it without building the list.
     */
    default OptionalDouble average(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        List<Double> recent = recent(deploymentId, series, now, ttl);
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
