package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricRegistryTest {
    private final MetricRegistry registry = new MetricRegistry();

    @Test
    void aCounterWritesOneSamplePerLabelSetInLabelOrderWithValuesEscaped() {
        Counters requests = registry.counter("sluice_things_total", "Things.\nCounted.", "group", "status");
        requests.inc("b", "200");
        requests.add(2.5, "a \"quoted\" \\ name\nnext", "500");
        requests.inc("b", "200");

        assertThat(registry.render()).isEqualTo("""
                # HELP sluice_things_total Things.\\nCounted.
                # TYPE sluice_things_total counter
                sluice_things_total{group="a \\"quoted\\" \\\\ name\\nnext",status="500"} 2.5
                sluice_things_total{group="b",status="200"} 2
                """);
        assertThat(requests.value("b", "200")).isEqualTo(2);
        assertThat(requests.value("never", "seen")).isZero();
    }

    @Test
    void aHistogramCountsAValueOnItsBoundInThatBucketAndOneJustAboveInTheNext() {
        Histograms durations = registry.histogram("sluice_wait_seconds", "Waits.", new double[] {0.5, 1}, "route");
        durations.observe(0.5, "r");
        durations.observe(0.75, "r");
        durations.observe(5, "r");
        durations.observe(Math.nextUp(0.5), "just above");

        assertThat(registry.render()).isEqualTo("""
                # HELP sluice_wait_seconds Waits.
                # TYPE sluice_wait_seconds histogram
                sluice_wait_seconds_bucket{route="just above",le="0.5"} 0
                sluice_wait_seconds_bucket{route="just above",le="1"} 1
                sluice_wait_seconds_bucket{route="just above",le="+Inf"} 1
                sluice_wait_seconds_sum{route="just above"} 0.5000000000000001
                sluice_wait_seconds_count{route="just above"} 1
                sluice_wait_seconds_bucket{route="r",le="0.5"} 1
                sluice_wait_seconds_bucket{route="r",le="1"} 2
                sluice_wait_seconds_bucket{route="r",le="+Inf"} 3
                sluice_wait_seconds_sum{route="r"} 6.25
                sluice_wait_seconds_count{route="r"} 3
                """);
        assertThat(durations.count("r")).isEqualTo(3);
    }

    @Test
    void gaugesAreReadWhenTheMetricsAreAndCountersKeptElsewhereAreTypedAsCounters() {
        double[] open = {3};
        registry.gauge("sluice_open", "Open.", () -> open[0]);
        registry.gauge("sluice_per", "Per.", () -> Map.of(List.of("x"), 1.0), "deployment");
        registry.counterOf("sluice_kept_total", "Kept.", () -> 7.0);
        open[0] = 4;

        assertThat(registry.render()).contains("sluice_open 4\n", "sluice_per{deployment=\"x\"} 1\n",
                "# TYPE sluice_kept_total counter\nsluice_kept_total 7\n");
    }

    @Test
    void namesLabelsAndValuesAreChecked() {
        Counters counter = registry.counter("sluice_ok_total", "Ok.", "a");
        assertThatThrownBy(() -> registry.counter("sluice_ok_total", "Again.")).hasMessageContaining("already registered");
        assertThatThrownBy(() -> registry.counter("sluice_no_suffix", "No.")).hasMessageContaining("_total");
        assertThatThrownBy(() -> registry.counter("bad name_total", "No.")).hasMessageContaining("metric name");
        assertThatThrownBy(() -> counter.inc()).hasMessageContaining("takes labels [a]");
        assertThatThrownBy(() -> counter.add(-1, "x")).hasMessageContaining("only rises");
        assertThatThrownBy(() -> registry.histogram("sluice_h", "H.", new double[] {1, 1})).hasMessageContaining("rise");
    }
}
