package dev.sluice.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.DoubleAdder;

/** A counter family: one monotonically rising total per set of label values. Thread-safe. */
public final class Counters extends MetricFamily {
    private final ConcurrentMap<List<String>, DoubleAdder> totals = new ConcurrentHashMap<>();

    Counters(String name, String help, List<String> labelNames) {
        super(name, help, labelNames);
        if (!name.endsWith("_total")) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
    }

    /** Adds one to the total of these label values. */
    public void inc(String... labelValues) {
        add(1, labelValues);
    }

    /** Adds {@code amount} (at least 0) to the total of these label values. */
    public void add(double amount, String... labelValues) {
        if (!(amount >= 0)) {
            throw new IllegalArgumentException(name + ": a counter only rises, not by " + amount);
        }
        totals.computeIfAbsent(values(labelValues), v -> new DoubleAdder()).add(amount);
    }

    /** The total of these label values; 0 when never counted. */
    public double value(String... labelValues) {
        DoubleAdder total = totals.get(values(labelValues));
        return total == null ? 0 : total.sum();
    }

    @Override
    String type() {
        return "counter";
    }

    @Override
    void samples(StringBuilder out) {
        for (Map.Entry<List<String>, DoubleAdder> total : Sorted.entries(totals)) {
            sample(out, name, labelNames, total.getKey(), null, null, total.getValue().sum());
        }
    }
}
