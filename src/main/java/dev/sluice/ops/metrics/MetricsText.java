package dev.sluice.ops.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Label;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/** A gateway's series and the process's, written together in Prometheus's text format (0.0.4). */
final class MetricsText {
    /** {@code text/plain; version=0.0.4; charset=utf-8}. */
    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private MetricsText() {}

    /**
     * Labels whose values name what the operator configured (groups, deployments, tags) rather
     * than what any gateway has: a series carrying one is left out of {@link #render(PrometheusRegistry, boolean)
     * render(registry, false)}.
     */
    static final Set<String> NAMING_LABELS = Set.of("model_group", "deployment", "fallback_group", "tag");

    /** @param named whether series that name groups, deployments and tags are written ({@link #NAMING_LABELS}) */
    static String render(PrometheusRegistry gateway, boolean named) {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        for (MetricSnapshot family : gateway.scrape()) {
            if (named || !names(family)) {
                all.metricSnapshot(family);
            }
        }
        for (MetricSnapshot family : JvmSeries.scrape()) {
            all.metricSnapshot(family);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            WRITER.write(out, all.build());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Whether any of the family's series carries a label of {@link #NAMING_LABELS}. */
    private static boolean names(MetricSnapshot family) {
        for (DataPointSnapshot point : family.getDataPoints()) {
            for (Label label : point.getLabels()) {
                if (NAMING_LABELS.contains(label.getName())) {
                    return true;
                }
            }
        }
        return false;
    }
}
