package dev.sluice.ops.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The JVM's and the process's series, client_java's standard ones ({@code jvm_memory_used_bytes},
 * {@code jvm_threads_current}, {@code jvm_gc_collection_seconds},
 * {@code process_resident_memory_bytes}, ...), so the usual JVM dashboards and alerts read them.
 *
 * <p>They describe the process, not one gateway, so they live in one registry per process:
 * every gateway in the process shows the same series, and starting many gateways in one JVM
 * (as the tests do) registers them, and the collectors' notification listeners, once.
 */
final class JvmSeries {
    private static final PrometheusRegistry REGISTRY = new PrometheusRegistry();

    private JvmSeries() {}

    /**
     * Registers the series, from when the first gateway is made (the allocation counters count
     * from then on); again is nothing, as client_java's {@link JvmMetrics} fills a registry once.
     */
    static void register() {
        JvmMetrics.builder().register(REGISTRY);
    }

    /** The series' values now. */
    static MetricSnapshots scrape() {
        return REGISTRY.scrape();
    }
}
