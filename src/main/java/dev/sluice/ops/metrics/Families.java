package dev.sluice.ops.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * How the gateway's own families are made in its registry. Counters and histograms keep no
 * exemplars (the text format does not carry them, and sampling them costs on every update);
 * histograms keep only their classic buckets, the ones the text format shows. A name already
 * registered is refused.
 */
final class Families {
    private Families() {}

    /** A counter; {@code name} ends in {@code _total}, as it is shown. */
    static Counter counter(PrometheusRegistry registry, String name, String help, String... labelNames) {
        return Counter.builder().name(name).help(help).labelNames(labelNames).withoutExemplars().register(registry);
    }

    /** A histogram with these upper bounds, in seconds for a duration. */
    static Histogram histogram(PrometheusRegistry registry, String name, String help, double[] bounds, String... labelNames) {
        return Histogram.builder().name(name).help(help).labelNames(labelNames).classicOnly().classicUpperBounds(bounds)
                .withoutExemplars().register(registry);
    }

    /** A gauge read at each scrape: {@code values} maps label values (in {@code labelNames}' order) to a value. */
    static void gauge(PrometheusRegistry registry, String name, String help, Supplier<Map<List<String>, Double>> values,
            String... labelNames) {
        GaugeWithCallback.builder().name(name).help(help).labelNames(labelNames)
                .callback(sample -> values.get().forEach((labels, value) -> sample.call(value, labels.toArray(String[]::new))))
                .register(registry);
    }

    /** A counter whose totals another part of the gateway keeps, by label values, read at each scrape. */
    static void counterOf(PrometheusRegistry registry, String name, String help, Supplier<Map<List<String>, Double>> totals,
            String... labelNames) {
        CounterWithCallback.builder().name(name).help(help).labelNames(labelNames)
                .callback(sample -> totals.get().forEach((labels, total) -> sample.call(total, labels.toArray(String[]::new))))
                .register(registry);
    }

    static double seconds(long nanos) {
        return Math.max(0, nanos) / (double) TimeUnit.SECONDS.toNanos(1);
    }
}
