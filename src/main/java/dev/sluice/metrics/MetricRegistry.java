package dev.sluice.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** The metric families of one gateway, written together for {@code GET /metrics}. */
public final class MetricRegistry {
    /** The content type of Prometheus's text format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final List<MetricFamily> families = new CopyOnWriteArrayList<>();

    public Counters counter(String name, String help, String... labelNames) {
        return add(new Counters(name, help, List.of(labelNames)));
    }

    public Histograms histogram(String name, String help, double[] bounds, String... labelNames) {
        return add(new Histograms(name, help, List.of(labelNames), bounds));
    }

    /** A gauge read when the metrics are: {@code values} maps label values (in {@code labelNames}' order) to a value. */
    public Gauges gauge(String name, String help, Supplier<Map<List<String>, Double>> values, String... labelNames) {
        return add(new Gauges(name, help, List.of(labelNames), values, false));
    }

    /** A gauge without labels. */
    public Gauges gauge(String name, String help, Supplier<Double> value) {
        return add(new Gauges(name, help, List.of(), () -> Map.of(List.of(), value.get()), false));
    }

    /** A counter without labels whose total another part of the gateway keeps, read when the metrics are. */
    public Gauges counterOf(String name, String help, Supplier<Double> total) {
        return add(new Gauges(name, help, List.of(), () -> Map.of(List.of(), total.get()), true));
    }

    /** A counter whose totals another part keeps, by label values, read when the metrics are. */
    public Gauges counterOf(String name, String help, Supplier<Map<List<String>, Double>> totals, String... labelNames) {
        return add(new Gauges(name, help, List.of(labelNames), totals, true));
    }

    private <F extends MetricFamily> F add(F family) {
        for (MetricFamily held : families) {
            if (held.name.equals(family.name)) {
                throw new IllegalArgumentException("a metric named " + family.name + " is already registered");
            }
        }
        families.add(family);
        return family;
    }

    /** Every family, in the order registered, in Prometheus's text format. */
    public String render() {
        StringBuilder out = new StringBuilder(4096);
        for (MetricFamily family : families) {
            family.write(out);
        }
        return out.toString();
    }
}
