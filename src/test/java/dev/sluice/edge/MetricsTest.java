package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.MetricSamples;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} after real calls through a gateway in front of real upstreams: the values,
 * not only the names, after a request that failed over and one that failed everywhere.
 */
class MetricsTest {
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aFailoverAFallbackAndAFailureAreEachCountedWhereTheyHappened() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %1$s, weight: 1000}, model_info: {id: failing}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %2$s, weight: 1}, model_info: {id: backup}}
                          - {model_name: down, litellm_params: {model: openai/c, api_base: %1$s}, model_info: {id: down-1}}
                          - {model_name: broken, litellm_params: {model: openai/d, api_base: %1$s}, model_info: {id: broken-1}}
                        router_settings:
                          allowed_fails: 0
                          cooldown_time: 60
                          num_retries: 1
                          fallbacks: [{broken: [g]}]
                        """.formatted(failing.baseUrl(), backup.baseUrl()))) {
            HttpResponse<String> failedOver = gateway.post("/v1/chat/completions", Chat.body("g", "hello"));
            assertThat(failedOver.statusCode()).isEqualTo(200);
            HttpResponse<String> failedEverywhere = gateway.post("/v1/chat/completions", Chat.body("down", "hello"));
            HttpResponse<String> fellBack = gateway.post("/v1/chat/completions", Chat.body("broken", "hello"));
            assertThat(fellBack.statusCode()).isEqualTo(200);

            HttpResponse<String> scraped = gateway.get("/metrics");
            assertThat(scraped.statusCode()).isEqualTo(200);
            assertThat(scraped.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            Map<String, Double> m = MetricSamples.parse(scraped.body());

            assertThat(m).containsEntry("sluice_requests_total{route=\"chat_completions\",status_code=\"200\"}", 2.0)
                    .containsEntry("sluice_requests_total{route=\"chat_completions\",status_code=\""
                            + failedEverywhere.statusCode() + "\"}", 1.0)
                    .containsEntry("sluice_request_duration_seconds_count{route=\"chat_completions\"}", 3.0)
                    .containsEntry("sluice_overhead_duration_seconds_count{route=\"chat_completions\"}", 3.0)
                    .containsEntry("sluice_requests_in_flight", 0.0)
                    .containsEntry("sluice_upstream_attempts_total{deployment=\"failing\",model_group=\"g\",outcome=\"server\","
                            + "status_code=\"500\"}", 1.0)
                    .containsEntry("sluice_upstream_attempts_total{deployment=\"backup\",model_group=\"g\",outcome=\"success\","
                            + "status_code=\"2xx\"}", 2.0)
                    .containsEntry("sluice_upstream_attempts_total{deployment=\"down-1\",model_group=\"down\",outcome=\"server\","
                            + "status_code=\"500\"}", 2.0)
                    .containsEntry("sluice_retries_total{deployment=\"down-1\",failure_class=\"server\",model_group=\"down\"}", 1.0)
                    .containsEntry("sluice_upstream_attempt_duration_seconds_count{deployment=\"backup\",model_group=\"g\","
                            + "outcome=\"success\"}", 2.0)
                    .containsEntry("sluice_failovers_total{deployment=\"failing\",failure_class=\"server\",model_group=\"g\"}", 1.0)
                    .containsEntry("sluice_benches_total{deployment=\"failing\",failure_class=\"server\",model_group=\"g\"}", 1.0)
                    .containsEntry("sluice_fallbacks_total{failure_class=\"server\",fallback_group=\"g\",model_group=\"broken\"}", 1.0)
                    .containsEntry("sluice_deployment_benched{deployment=\"failing\",model_group=\"g\"}", 1.0)
                    .containsEntry("sluice_deployment_benched{deployment=\"backup\",model_group=\"g\"}", 0.0)
                    .containsEntry("sluice_deployment_in_flight{deployment=\"backup\",model_group=\"g\"}", 0.0);
            assertThat(m).as("a failover is not a retry")
                    .doesNotContainKey("sluice_retries_total{deployment=\"failing\",failure_class=\"server\",model_group=\"g\"}");

            long prompt = 0;
            long completion = 0;
            for (HttpResponse<String> served : java.util.List.of(failedOver, fellBack)) {
                var usage = Json.parse(served.body().getBytes()).path("usage");
                prompt += usage.path("prompt_tokens").asLong();
                completion += usage.path("completion_tokens").asLong();
            }
            assertThat(prompt).isPositive();
            assertThat(m).containsEntry("sluice_tokens_total{model_group=\"g\",type=\"prompt\"}", (double) prompt)
                    .containsEntry("sluice_tokens_total{model_group=\"g\",type=\"completion\"}", (double) completion);
        }
    }

    @Test
    void aCallerWhoHangsUpIsA499AndAStreamCutMidwayIsCountedAsInterrupted() throws Exception {
        try (MockUpstream hanging = MockUpstream.start(MockOptions.defaults("hanging", MockMode.HANG));
                MockUpstream cut = MockUpstream.start(MockOptions.defaults("cut", MockMode.CUT));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: slow, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: hanging-1}}
                          - {model_name: cut, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: cut-1}}
                        router_settings: {num_retries: 0}
                        """.formatted(hanging.baseUrl(), cut.baseUrl()))) {
            gateway.rawChatThenHangUp(null, Chat.body("slow", "hello"));
            HttpResponse<String> interrupted = gateway.post("/v1/chat/completions", Chat.stream("cut", "hello"));
            assertThat(interrupted.statusCode()).isEqualTo(200);
            assertThat(interrupted.body()).contains("stream_interrupted");

            dev.sluice.testing.Eventually.until("the hang-up is counted", java.time.Duration.ofSeconds(5),
                    () -> MetricSamples.parse(gateway.get("/metrics").body())
                            .getOrDefault("sluice_requests_total{route=\"chat_completions\",status_code=\"499\"}", 0.0) == 1.0);
            Map<String, Double> m = MetricSamples.parse(gateway.get("/metrics").body());
            assertThat(m).containsEntry("sluice_requests_in_flight", 0.0)
                    .containsEntry("sluice_stream_interruptions_total{deployment=\"cut-1\",model_group=\"cut\"}", 1.0)
                    .containsEntry("sluice_requests_total{route=\"chat_completions\",status_code=\"200\"}", 1.0)
                    .containsEntry("sluice_deployment_in_flight{deployment=\"hanging-1\",model_group=\"slow\"}", 0.0);
            assertThat(MetricSamples.bucketBounds(m, "sluice_request_duration_seconds", "route=\"chat_completions\""))
                    .as("the duration buckets, from half a millisecond to five minutes")
                    .containsExactly(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
                            60.0, 120.0, 300.0, Double.POSITIVE_INFINITY);
        }
    }

    @Test
    void redisHealthIsShownWhenReplicasShareOne() throws Exception {
        try (MockUpstream up = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        router_settings: {redis_host: %s, redis_port: %d, redis_key_prefix: "%s"}
                        """.formatted(up.baseUrl(), TestRedis.HOST, TestRedis.PORT, prefix))) {
            Map<String, Double> m = MetricSamples.parse(gateway.get("/metrics").body());

            assertThat(m).containsEntry("sluice_redis_up", 1.0)
                    .containsEntry("sluice_redis_outages_total", 0.0)
                    .containsEntry("sluice_redis_decided_locally_total", 0.0);
        }
    }

    @Test
    void everyBackgroundJobOfTheProcessHasARestartCount() throws Exception {
        try (MockUpstream up = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        router_settings: {redis_host: %s, redis_port: %d, redis_key_prefix: "%s"}
                        """.formatted(up.baseUrl(), TestRedis.HOST, TestRedis.PORT, prefix))) {
            String text = gateway.get("/metrics").body();
            Map<String, Double> m = MetricSamples.parse(text);

            assertThat(text).contains("# TYPE sluice_background_job_restarts_total counter");
            assertThat(m).containsKeys("sluice_background_job_restarts_total{job=\"limit-leases\"}",
                    "sluice_background_job_restarts_total{job=\"inflight-announcer\"}");
        }
    }

    @Test
    void theProcessShowsItsMemoryThreadsAndCollectionsUnderClientJavasStandardJvmNames() throws Exception {
        try (MockUpstream up = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(up.baseUrl()))) {
            String text = gateway.get("/metrics").body();
            Map<String, Double> m = MetricSamples.parse(text);

            assertThat(m.get("jvm_memory_used_bytes{area=\"heap\"}")).isPositive()
                    .isLessThanOrEqualTo(m.get("jvm_memory_committed_bytes{area=\"heap\"}"));
            assertThat(m.get("jvm_memory_used_bytes{area=\"nonheap\"}")).isPositive();
            assertThat(m.get("jvm_memory_max_bytes{area=\"heap\"}")).isGreaterThanOrEqualTo(m.get("jvm_memory_committed_bytes{area=\"heap\"}"));
            assertThat(m.get("jvm_threads_current")).isPositive();
            assertThat(m.get("process_resident_memory_bytes")).as("Linux gives the resident set")
                    .isGreaterThan(m.get("jvm_memory_used_bytes{area=\"nonheap\"}"));
            assertThat(text).contains("# TYPE jvm_gc_collection_seconds summary");
            assertThat(m.keySet()).as("collections by collector")
                    .anyMatch(k -> k.startsWith("jvm_gc_collection_seconds_count{gc=\""));
            assertThat(m.keySet()).as("time collecting by collector")
                    .anyMatch(k -> k.startsWith("jvm_gc_collection_seconds_sum{gc=\""));
        }
    }
}
