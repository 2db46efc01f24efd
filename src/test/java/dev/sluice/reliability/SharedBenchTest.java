package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.Ports;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing the local Redis, as two replicas behind one load balancer would: a
 * deployment benched through one is avoided by the other within a second. Each test uses a
 * {@code redis_key_prefix} of its own and deletes its keys.
 */
class SharedBenchTest {
    private static final String BENCHED_FAILING = "sluice_deployment_benched{deployment=\"failing\",model_group=\"g\"}";

    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aDeploymentBenchedThroughOneReplicaIsAvoidedByTheOtherWithinASecond() throws Exception {
        RecordingEvents eventsA = new RecordingEvents();
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: failing}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: backup}}
                    router_settings:
                      allowed_fails: 0
                      cooldown_time: 30
                      redis_host: %s
                      redis_port: %d
                      redis_key_prefix: "%s"
                    """.formatted(failing.baseUrl(), backup.baseUrl(), TestRedis.HOST, TestRedis.PORT, prefix);
            try (TestGateway a = TestGateway.start(yaml, Map.of(), eventsA);
                    TestGateway b = TestGateway.start(yaml)) {
                HttpResponse<String> first = a.post("/v1/chat/completions", Chat.body("g", "hi"));
                long benchedAt = System.nanoTime();
                assertThat(first.statusCode()).isEqualTo(200);
                assertThat(first.headers().firstValue("x-litellm-model-id")).hasValue("backup");
                assertThat(eventsA.brief()).contains("bench failing server");
                assertThat(failing.requests()).isEqualTo(1);

                b.awaitMetric("b sees the bench a set", BENCHED_FAILING, 1.0);
                // The promise is the bench reaching b within a second; b's calls after it only need to
                // come inside the 30 s bench, however slowly a loaded machine runs them.
                assertThat((System.nanoTime() - benchedAt) / 1_000_000).as("b saw the bench within a second").isLessThan(1_000);
                for (int i = 0; i < 5; i++) {
                    HttpResponse<String> throughB = b.post("/v1/chat/completions", Chat.body("g", "hi"));
                    assertThat(throughB.statusCode()).isEqualTo(200);
                    assertThat(throughB.headers().firstValue("x-litellm-model-id")).hasValue("backup");
                }
                assertThat(failing.requests()).as("b never tried the deployment a benched").isEqualTo(1);
                assertThat(b.get("/health/readiness").body()).contains("\"router_state\":\"redis: connected\"");
            }
        }
    }

    @Test
    void failuresSeenByTwoReplicasAddUpToOneBench() throws Exception {
        RecordingEvents eventsB = new RecordingEvents();
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: failing}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: backup}}
                    router_settings:
                      num_retries: 0
                      allowed_fails: 1
                      cooldown_time: 30
                      redis_host: %s
                      redis_port: %d
                      redis_key_prefix: "%s"
                    """.formatted(failing.baseUrl(), backup.baseUrl(), TestRedis.HOST, TestRedis.PORT, prefix);
            try (TestGateway a = TestGateway.start(yaml);
                    TestGateway b = TestGateway.start(yaml, Map.of(), eventsB)) {
                a.post("/v1/chat/completions", Chat.body("g", "hi"));
                Eventually.until("a's failure is counted in Redis", Duration.ofSeconds(10),
                        () -> "1".equals(TestRedis.command("GET", prefix + "cooldown:fails:failing:SERVER")));

                b.post("/v1/chat/completions", Chat.body("g", "hi"));
                eventsB.awaitBrief("bench failing server", Duration.ofSeconds(10)); // b benches on the shared total of 2
                a.awaitMetric("a sees the bench b set", BENCHED_FAILING, 1.0);

                for (int i = 0; i < 3; i++) {
                    assertThat(a.post("/v1/chat/completions", Chat.body("g", "hi")).headers().firstValue("x-litellm-model-id"))
                            .hasValue("backup");
                }
                assertThat(failing.requests()).as("one failure through each replica, then benched on both").isEqualTo(2);
            }
        }
    }

    @Test
    void withRedisUnreachableTheGatewayStartsAndBenchesOnItsOwnState() throws Exception {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway alone = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: failing}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: backup}}
                        router_settings: {allowed_fails: 0, cooldown_time: 30, redis_host: 127.0.0.1, redis_port: %d}
                        """.formatted(failing.baseUrl(), backup.baseUrl(), Ports.refusing()), Map.of(), events)) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> response = alone.post("/v1/chat/completions", Chat.body("g", "hi"));
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("backup");
            }
            assertThat(failing.requests()).as("benched locally after its one failure").isEqualTo(1);
            assertThat(events.brief()).contains("bench failing server");
            JsonNode readiness = Json.parse(alone.get("/health/readiness").body().getBytes());
            assertThat(readiness.path("router_state").asText()).isEqualTo("redis: unreachable, serving on local state");
            assertThat(readiness.path("redis").path("outages").asLong()).isEqualTo(1);
            assertThat(readiness.path("redis").path("down_since").asText()).isNotEmpty();
            assertThat(readiness.path("redis").path("call_failures").asLong()).as("the failure count it could not share")
                    .isPositive();
            assertThat(readiness.path("redis").path("decided_locally").asLong()).as("no limit or claim in this config").isZero();
        }
    }
}
