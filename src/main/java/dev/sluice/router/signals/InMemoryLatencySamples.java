package dev.sluice.router.signals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The latency samples of a single process: for each deployment, one entry holding its newest
 * samples of each {@link LatencySeries series}, at most as many per series as the caller asks
 * to keep. An entry is immutable and replaced in one atomic map update, so a reader never sees
 * a half-written series and writers on different deployments never wait on each other.
 *
 * <p>Expiry happens on read: a sample is returned while it is no older than the ttl (a
 * sample taken at {@code t} is still returned at exactly {@code t + ttl}, not a moment
 * later). Expired samples are not removed; the size bound already caps what is held, and
 * the next samples push them out.
 *
 * <p>{@link #average} is read for every candidate of every latency-based pick, far more
 * often than samples are added, so each series also holds its mean and the time of its
 * earliest sample, worked out when a sample is added: while the earliest is within the ttl,
 * which is the usual case, the average is that mean, read without a scan. Either series of a
 * deployment is one map look-up away, by the deployment's id as it is.
 */
public final class InMemoryLatencySamples implements LatencySamples {

    /**
     * One series, oldest first; {@code at[i]} is when {@code seconds[i]} was taken.
     * {@code earliest} is the earliest of {@code at} (samples are kept in the order they were
     * added, which writers on several threads may add slightly out of time order) and
     * {@code mean} the mean of all {@code seconds}, summed oldest first as {@link #average}
     * sums them, made into the value {@link #average} returns once here rather than on every
     * read. {@link #NONE} has no samples: its earliest is {@link Instant#MAX}, never expired,
     * and its mean empty, so {@link #average} reads it as it reads any other.
     */
    private record Samples(Instant[] at, double[] seconds, Instant earliest, OptionalDouble mean) {
        static final Samples NONE = new Samples(new Instant[0], new double[0], Instant.MAX, OptionalDouble.empty());

        boolean isEmpty() {
            return at.length == 0;
        }

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
            return new Samples(newAt, newSeconds, earliest, OptionalDouble.of(sum / newSeconds.length));
        }
    }

    /** A deployment's entry: its samples of each series, a series with none being {@link Samples#NONE}. */
    private record Entry(Samples perOutputToken, Samples firstEvent) {
        static final Entry NONE = new Entry(Samples.NONE, Samples.NONE);

        Samples of(LatencySeries series) {
            return switch (series) {
                case PER_OUTPUT_TOKEN -> perOutputToken;
                case FIRST_EVENT -> firstEvent;
            };
        }

        Entry plus(LatencySeries series, Instant when, double value, int maxSamples) {
            return switch (series) {
                case PER_OUTPUT_TOKEN -> new Entry(perOutputToken.plus(when, value, maxSamples), firstEvent);
                case FIRST_EVENT -> new Entry(perOutputToken, firstEvent.plus(when, value, maxSamples));
            };
        }
    }

    private final ConcurrentMap<String, Entry> entries = new ConcurrentHashMap<>();

    @Override
    public void add(String deploymentId, LatencySeries series, Instant at, double seconds, int maxSamples) {
        if (maxSamples < 1) {
            throw new IllegalArgumentException("maxSamples: " + maxSamples + " (expected: >= 1)");
        }
        entries.compute(deploymentId,
                (id, held) -> (held == null ? Entry.NONE : held).plus(series, at, seconds, maxSamples));
    }

    @Override
    public List<Double> recent(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        Samples held = samples(deploymentId, series);
        if (held.isEmpty()) {
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
    public OptionalDouble average(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
        Samples held = samples(deploymentId, series);
        Instant oldest = now.minus(ttl);
        if (!held.earliest().isBefore(oldest)) {
            return held.mean();
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

    private Samples samples(String deploymentId, LatencySeries series) {
        Entry entry = entries.get(deploymentId);
        return entry == null ? Samples.NONE : entry.of(series);
    }
}
