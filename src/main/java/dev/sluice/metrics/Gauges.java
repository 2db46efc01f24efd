package dev.sluice.metrics;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A family whose samples are read when the metrics are, from {@code read}: label values to a
 * value. A gauge, or a counter kept elsewhere (a total another part of the gateway counts).
 */
public final class Gauges extends MetricFamily {
    private final Supplier<Map<List<String>, Double>> read;
    private final String type;

    Gauges(String name, String help, List<String> labelNames, Supplier<Map<List<String>, Double>> read, boolean counter) {
        super(name, help, labelNames);
        this.read = read;
        this.type = counter ? "counter" : "gauge";
        if (counter && !name.endsWith("_total")) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
    }

    @Override
    String type() {
        return type;
    }

    @Override
    void samples(StringBuilder out) {
        for (Map.Entry<List<String>, Double> value : Sorted.entries(read.get())) {
            sample(out, name, labelNames, value.getKey(), null, null, value.getValue());
        }
    }
}
