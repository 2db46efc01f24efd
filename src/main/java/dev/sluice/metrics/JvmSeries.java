package dev.sluice.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The JVM's and the process's series, client_java's standard ones ({@code jvm_memory_used_bytes},
 * {@code jvm_threads_current}, {@code jvm_gc_collection_seconds},
 * {@code process_resident_memory_bytes}, ...), so the usual JVM dashboards and alerts read them.
 *
 * <p>They describe the process, not one gateway, so they live in one registry per process,
 * registered on first use: every gateway in the process shows the same series, and starting
 * many gateways in one JVM (as the tests do) registers them, and their collectors' listeners,
 * once.
 */
final class JvmSeries {
    private JvmSeries() {}

    private static final class Holder {
        static final PrometheusRegistry REGISTRY = register();

        private static PrometheusRegistry register() {
            PrometheusRegistry registry = new PrometheusRegistry();
            JvmMetrics.builder().register(registry);
            return registry;
        }
    }

    /** The series' values now. */
    static MetricSnapshots scrape() {
        return Holder.REGISTRY.scrape();
    }
}
