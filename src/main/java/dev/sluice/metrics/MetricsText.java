package dev.sluice.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A gateway's series and the process's, written together in Prometheus's text format (0.0.4). */
final class MetricsText {
    /** {@code text/plain; version=0.0.4; charset=utf-8}. */
    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private MetricsText() {}

    static String render(PrometheusRegistry gateway) {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        for (MetricSnapshot family : gateway.scrape()) {
            all.metricSnapshot(family);
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
}
