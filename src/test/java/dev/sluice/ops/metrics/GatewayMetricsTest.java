package dev.sluice.ops.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.store.SpendRow;
import dev.sluice.testing.MetricSamples;
import io.vertx.core.buffer.Buffer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@link GatewayMetrics} writes after each kind of update, read back as a scrape would. */
class GatewayMetricsTest {
    private final GatewayMetrics metrics = new GatewayMetrics();

    private Map<String, Double> scrape() {
        return MetricSamples.parse(metrics.render());
    }

    @Test
    void aRequestIsCountedByRouteAndStatusAndLeavesNothingInFlight() {
        metrics.requestStarted();
        metrics.requestStarted();
        assertThat(scrape()).containsEntry("sluice_requests_in_flight", 2.0);

        metrics.requestEnded("chat_completions", 200, 2_000_000);
        metrics.requestEnded("chat_completions", 499, 1_000_000);

        assertThat(scrape()).containsEntry("sluice_requests_in_flight", 0.0)
                .containsEntry("sluice_requests_total{route=\"chat_completions\",status_code=\"200\"}", 1.0)
                .containsEntry("sluice_requests_total{route=\"chat_completions\",status_code=\"499\"}", 1.0)
                .containsEntry("sluice_request_duration_seconds_count{route=\"chat_completions\"}", 2.0);
        assertThat(scrape().get("sluice_request_duration_seconds_sum{route=\"chat_completions\"}")).isCloseTo(0.003, within(1e-12));
    }

    @Test
    void anOverheadOnABucketsBoundFallsInThatBucketAndOneJustAboveInTheNext() {
        metrics.overhead("embeddings", 500_000); // 0.0005 s, a bound
        metrics.overhead("completions", 500_001);

        Map<String, Double> m = scrape();
        assertThat(bucket(m, "embeddings", 0.00025)).isZero();
        assertThat(bucket(m, "embeddings", 0.0005)).isEqualTo(1.0);
        assertThat(bucket(m, "completions", 0.0005)).isZero();
        assertThat(bucket(m, "completions", 0.001)).isEqualTo(1.0);
        assertThat(MetricSamples.bucketBounds(m, "sluice_overhead_duration_seconds", "route=\"embeddings\""))
                .containsExactly(0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                        Double.POSITIVE_INFINITY);
    }

    private static Double bucket(Map<String, Double> m, String route, double bound) {
        return m.get("sluice_overhead_duration_seconds_bucket{route=\"" + route + "\",le=\"" + bound + "\"}");
    }

    @Test
    void attemptsAreCountedByOutcomeAndTheUpstreamsStatus() {
        Failure server = new Failure(FailureClass.SERVER, 503, Buffer.buffer(), Optional.empty(), "503 from upstream");
        Failure transport = new Failure(FailureClass.TRANSPORT, 0, Buffer.buffer(), Optional.empty(), "connection refused");
        metrics.attemptEnded("c1", "g", "d1", Optional.of(server), 1_000_000);
        metrics.attemptEnded("c1", "g", "d1", Optional.of(transport), 1_000_000);
        metrics.attemptEnded("c1", "g", "d2", Optional.empty(), 1_000_000);
        metrics.attemptEnded("c2", "g", "d2", Optional.empty(), 1_000_000);
        metrics.retry("c1", "g", "d1", server, 10);
        metrics.failover("c1", "g", "d1", transport);
        metrics.bench("g", "d1", FailureClass.SERVER, Instant.EPOCH);
        metrics.fallback("c3", "g", "backup", server);
        metrics.skip("c3", "g", "other", dev.sluice.router.SkipReason.OVER_BUDGET);
        metrics.streamCut("c2", "g", "d2", "reset");

        assertThat(scrape())
                .containsEntry("sluice_upstream_attempts_total{deployment=\"d1\",model_group=\"g\",outcome=\"server\","
                        + "status_code=\"503\"}", 1.0)
                .containsEntry("sluice_upstream_attempts_total{deployment=\"d1\",model_group=\"g\",outcome=\"transport\","
                        + "status_code=\"none\"}", 1.0)
                .containsEntry("sluice_upstream_attempts_total{deployment=\"d2\",model_group=\"g\",outcome=\"success\","
                        + "status_code=\"2xx\"}", 2.0)
                .containsEntry("sluice_upstream_attempt_duration_seconds_count{deployment=\"d2\",model_group=\"g\","
                        + "outcome=\"success\"}", 2.0)
                .containsEntry("sluice_upstream_attempt_duration_seconds_count{deployment=\"d1\",model_group=\"g\","
                        + "outcome=\"server\"}", 1.0)
                .containsEntry("sluice_retries_total{deployment=\"d1\",failure_class=\"server\",model_group=\"g\"}", 1.0)
                .containsEntry("sluice_failovers_total{deployment=\"d1\",failure_class=\"transport\",model_group=\"g\"}", 1.0)
                .containsEntry("sluice_benches_total{deployment=\"d1\",failure_class=\"server\",model_group=\"g\"}", 1.0)
                .containsEntry("sluice_fallbacks_total{failure_class=\"server\",fallback_group=\"backup\",model_group=\"g\"}", 1.0)
                .containsEntry("sluice_fallbacks_skipped_total{fallback_group=\"other\",model_group=\"g\",reason=\"over_budget\"}",
                        1.0)
                .containsEntry("sluice_stream_interruptions_total{deployment=\"d2\",model_group=\"g\"}", 1.0);
    }

    @Test
    void aCallsTokensAndCostAreAddedToItsGroupAndNothingIsShownForNone() {
        metrics.callEnded(SpendRow.builder("c1", "g", Instant.EPOCH).promptTokens(10).completionTokens(4)
                .cost(new BigDecimal("0.25")).build());
        metrics.callEnded(SpendRow.builder("c2", "g", Instant.EPOCH).promptTokens(5).cost(new BigDecimal("0.5")).build());
        metrics.callEnded(SpendRow.builder("c3", "free", Instant.EPOCH).build());

        assertThat(scrape()).containsEntry("sluice_tokens_total{model_group=\"g\",type=\"prompt\"}", 15.0)
                .containsEntry("sluice_tokens_total{model_group=\"g\",type=\"completion\"}", 4.0)
                .containsEntry("sluice_spend_usd_total{model_group=\"g\"}", 0.75)
                .doesNotContainKeys("sluice_tokens_total{model_group=\"free\",type=\"prompt\"}",
                        "sluice_spend_usd_total{model_group=\"free\"}");
    }

    @Test
    void aCallIsCountedOnceForEachOfItsTagsByGroupAndAnUntaggedCallNowhere() {
        metrics.callEnded(SpendRow.builder("c1", "g", Instant.EPOCH).tags(List.of("paid", "eu")).build());
        metrics.callEnded(SpendRow.builder("c2", "g", Instant.EPOCH).tags(List.of("paid")).status(400).build());
        metrics.callEnded(SpendRow.builder("c3", "h", Instant.EPOCH).tags(List.of("paid")).build());
        metrics.callEnded(SpendRow.builder("c4", "g", Instant.EPOCH).build());

        Map<String, Double> m = scrape();
        assertThat(m).containsEntry("sluice_tag_requests_total{model_group=\"g\",tag=\"paid\"}", 2.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"g\",tag=\"eu\"}", 1.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"h\",tag=\"paid\"}", 1.0);
        assertThat(m.keySet().stream().filter(k -> k.startsWith("sluice_tag_requests_total{"))).hasSize(3);
    }

    @Test
    void tagsPastTheBoundAreCountedTogetherWhileTheFirstOnesKeepTheirSeries() {
        GatewayMetrics bounded = new GatewayMetrics(2);
        bounded.callEnded(SpendRow.builder("c1", "g", Instant.EPOCH).tags(List.of("a", "b")).build());
        bounded.callEnded(SpendRow.builder("c2", "g", Instant.EPOCH).tags(List.of("c")).build());
        bounded.callEnded(SpendRow.builder("c3", "h", Instant.EPOCH).tags(List.of("d", "a")).build());

        Map<String, Double> m = MetricSamples.parse(bounded.render());
        assertThat(m).containsEntry("sluice_tag_requests_total{model_group=\"g\",tag=\"a\"}", 1.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"g\",tag=\"b\"}", 1.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"g\",tag=\"__other__\"}", 1.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"h\",tag=\"__other__\"}", 1.0)
                .containsEntry("sluice_tag_requests_total{model_group=\"h\",tag=\"a\"}", 1.0);
        assertThat(m.keySet().stream().filter(k -> k.startsWith("sluice_tag_requests_total{"))).hasSize(5);
    }

    @Test
    void gaugesAreReadAtEachScrapeAndCountersKeptElsewhereAreTypedAsCounters() {
        double[] open = {3};
        metrics.gauge("sluice_open", "Open.", () -> open[0]);
        metrics.gauge("sluice_per", "Per.", () -> Map.of(List.of("x"), 1.0), "deployment");
        metrics.counterOf("sluice_kept_total", "Kept.", () -> 7.0);
        metrics.counterOf("sluice_kept_by_total", "Kept by.", () -> Map.of(List.of("y"), 2.0), "deployment");
        open[0] = 4;

        String text = metrics.render();
        assertThat(MetricSamples.parse(text)).containsEntry("sluice_open", 4.0)
                .containsEntry("sluice_per{deployment=\"x\"}", 1.0)
                .containsEntry("sluice_kept_total", 7.0)
                .containsEntry("sluice_kept_by_total{deployment=\"y\"}", 2.0);
        assertThat(text).contains("# TYPE sluice_kept_total counter", "# TYPE sluice_open gauge");
    }

    @Test
    void aNameIsRegisteredOnceAndLabelValuesMustMatchTheLabels() {
        metrics.gauge("sluice_once", "Once.", () -> 1.0);
        assertThatThrownBy(() -> metrics.gauge("sluice_once", "Again.", () -> 2.0)).hasMessageContaining("sluice_once");
        assertThatThrownBy(() -> metrics.gauge("sluice_requests_in_flight", "Again.", () -> 2.0))
                .hasMessageContaining("sluice_requests_in_flight");
    }

    @Test
    void everyGatewayInTheProcessShowsTheJvmSeriesUnderClientJavasNames() {
        GatewayMetrics other = new GatewayMetrics();
        for (Map<String, Double> m : List.of(scrape(), MetricSamples.parse(other.render()))) {
            assertThat(m.get("jvm_memory_used_bytes{area=\"heap\"}")).isPositive();
            assertThat(m.get("jvm_threads_current")).isPositive();
            assertThat(m).containsKey("process_resident_memory_bytes").containsKey("process_cpu_seconds_total");
        }
    }

    @Test
    void theContentTypeIsPrometheusText() {
        assertThat(GatewayMetrics.CONTENT_TYPE).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    }
}
