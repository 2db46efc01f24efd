package dev.sluice.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A histogram family: per set of label values, how many observations fell at or under each
 * bucket's upper bound, their count and their sum. Observing is a few adder increments, no
 * lock. Thread-safe.
 */
public final class Histograms extends MetricFamily {
    private final double[] bounds;
    private final ConcurrentMap<List<String>, Series> series = new ConcurrentHashMap<>();

    private final class Series {
        /** Observations per bucket, not yet cumulative; the last is over every bound. */
        final LongAdder[] buckets = new LongAdder[bounds.length + 1];
        final LongAdder count = new LongAdder();
        final DoubleAdder sum = new DoubleAdder();

        Series() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }
    }

    Histograms(String name, String help, List<String> labelNames, double... bounds) {
        super(name, help, labelNames);
        for (int i = 1; i < bounds.length; i++) {
            if (!(bounds[i] > bounds[i - 1])) {
                throw new IllegalArgumentException(name + ": bucket bounds must rise");
            }
        }
        this.bounds = bounds.clone();
        if (labelNames.contains("le")) {
            throw new IllegalArgumentException(name + ": 'le' is the bucket label");
        }
    }

    /** Counts one observation of {@code value} (seconds, for a duration) for these label values. */
    public void observe(double value, String... labelValues) {
        Series s = series.computeIfAbsent(values(labelValues), v -> new Series());
        int bucket = 0;
        while (bucket < bounds.length && value > bounds[bucket]) {
            bucket++;
        }
        s.buckets[bucket].increment();
        s.count.increment();
        s.sum.add(value);
    }

    /** How many observations these label values have. */
    public long count(String... labelValues) {
        Series s = series.get(values(labelValues));
        return s == null ? 0 : s.count.sum();
    }

    @Override
    String type() {
        return "histogram";
    }

    @Override
    void samples(StringBuilder out) {
        for (Map.Entry<List<String>, Series> entry : Sorted.entries(series)) {
            Series s = entry.getValue();
            long cumulative = 0;
            for (int i = 0; i < bounds.length; i++) {
                cumulative += s.buckets[i].sum();
                sample(out, name + "_bucket", labelNames, entry.getKey(), "le", number(bounds[i]), cumulative);
            }
            cumulative += s.buckets[bounds.length].sum();
            sample(out, name + "_bucket", labelNames, entry.getKey(), "le", "+Inf", cumulative);
            sample(out, name + "_sum", labelNames, entry.getKey(), null, null, s.sum.sum());
            sample(out, name + "_count", labelNames, entry.getKey(), null, null, cumulative);
        }
    }
}
