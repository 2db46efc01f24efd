package dev.sluice.state;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The latency samples of a single process: for each deployment, its newest samples, at most
 * as many as the caller asks to keep. Each deployment's samples are an immutable array
 * replaced in one atomic map update, so a reader never sees a half-written list and writers
 * on different deployments never wait on each other.
 *
 * <p>Expiry happens on read: a sample is returned while it is no older than the ttl (a
 * sample taken at {@code t} is still returned at exactly {@code t + ttl}, not a moment
 * later). Expired samples are not removed; the size bound already caps what is held, and
 * the next samples push them out.
 *
 * <p>{@link #average} is read for every candidate of every latency-based pick, far more
 * often than samples are added, so each deployment's samples also hold their mean and the
 * time of their earliest one, worked out when a sample is added: while the earliest is
 * within the ttl, which is the usual case, the average is that mean, read without a scan.
 */
public final class InMemoryLatencySamples implements LatencySamples {

    /**
     * Oldest first; {@code at[i]} is when {@code seconds[i]} was taken. {@code earliest} is
     * the earliest of {@code at} (samples are kept in the order they were added, which
     * writers on several threads may add slightly out of time order) and {@code mean} the
     * mean of all {@code seconds}, summed oldest first as {@link #average} sums them.
     */
    private record Samples(Instant[] at, double[] seconds, Instant earliest, double mean) {
        Samples plus(Instant when, double value, int maxSamples) {
            int keep = Math.min(at.length, maxSamples - 1);
            int from = at.length - keep;
            Instant[] newAt = Arrays.copyOfRange(at, from, from + keep + 1);
            double[] newSeconds = Arrays.copyOfRange(seconds, from, from + keep + 1);
            newAt[keep] = when;
            newSeconds[keep] = value;
            Instant earliest = when;
            double sum = 0;
            for (int i = 0; i < newAt.length; i++) {
                if (newAt[i].isBefore(earliest)) {
                    earliest = newAt[i];
                }
                sum += newSeconds[i];
            }
            return new Samples(newAt, newSeconds, earliest, sum / newSeconds.length);
        }
    }

    private static final Samples NONE = new Samples(new Instant[0], new double[0], Instant.MAX, 0);

    private final ConcurrentMap<String, Samples> samples = new ConcurrentHashMap<>();

    @Override
    public void add(String deploymentId, Instant at, double seconds, int maxSamples) {
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples: " + maxSamples + " (expected: >= 1)");
        }
        samples.merge(deploymentId, NONE.plus(at, seconds, maxSamples),
                (held, one) -> held.plus(at, seconds, maxSamples));
    }

    @Override
    public List<Double> recent(String deploymentId, Instant now, Duration ttl) {
        Samples held = samples.get(deploymentId);
        if (held == null) {
            return List.of();
        }
        Instant oldest = now.minus(ttl);
        List<Double> recent = new ArrayList<>(held.at().length);
        for (int i = 0; i < held.at().length; i++) {
            if (!held.at()[i].isBefore(oldest)) {
                recent.add(held.seconds()[i]);
            }
        }
        return recent;
    }

    /** As {@link #recent}, without building a list; without a scan while every sample is recent. */
    @Override
    public OptionalDouble average(String deploymentId, Instant now, Duration ttl) {
        Samples held = samples.get(deploymentId);
        if (held == null) {
            return OptionalDouble.empty();
        }
        Instant oldest = now.minus(ttl);
        if (!held.earliest().isBefore(oldest)) {
            return OptionalDouble.of(held.mean());
        }
        double sum = 0;
        int count = 0;
        for (int i = 0; i < held.at().length; i++) {
            if (!held.at()[i].isBefore(oldest)) {
                sum += held.seconds()[i];
                count++;
            }
        }
        return count == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / count);
    }
}
