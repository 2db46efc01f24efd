package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.MetricSamples;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas as users deploy them: the built jar running in two or three processes on one
 * config, sharing the local Redis (and PostgreSQL, for keys), with upstreams that are real
 * HTTP servers in this JVM counting what reaches them. Each test uses a
 * {@code redis_key_prefix} of its own and deletes its keys.
 *
 * <p>Groups named {@code warm-up} exist so that each replica serves a first call, which a cold
 * JVM answers slowly, before the calls whose timing the test asserts; they reach the healthy
 * upstream through a deployment of their own, so they change no state the test looks at.
 */
class ReplicasIT {
    private static final String MASTER_KEY = "sk-1234";
    private static final String CONNECTED = "redis: connected";
    private static final String UNREACHABLE = "redis: unreachable, serving on local state";

    private final String prefix = TestRedis.newPrefix();

    @TempDir
    Path folder;

    @AfterEach
    void deleteRedisKeys() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aBenchMadeOnOneReplicaIsHonouredByTheOtherWithinASecond() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: failing}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %2$s, weight: 1}, model_info: {id: backup}}
                      - {model_name: warm-up, litellm_params: {model: openai/b, api_base: %2$s}, model_info: {id: warm-up}}
                    router_settings:
                      allowed_fails: 0
                      cooldown_time: 30
                    """.formatted(failing.baseUrl(), backup.baseUrl()) + redisSettings(TestRedis.PORT);
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1)) {
                awaitRouterState(replicas, CONNECTED, Duration.ofSeconds(5));
                warmUp(replicas);

                assertBenchOnAIsHonouredByB(a, b, failing);
            }
        }
    }

    @Test
    void aKeysRpmLimitHoldsAcrossReplicas() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                    general_settings:
                      master_key: %s
                      %s
                    router_settings:
                    """.formatted(upstream.baseUrl(), MASTER_KEY, store.generalSetting()) + redisSettings(TestRedis.PORT);
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b", "c");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1); GatewayProcess c = replicas.get(2)) {
                awaitRouterState(replicas, CONNECTED, Duration.ofSeconds(5));
                HttpResponse<String> generated = a.post("/key/generate", "{\"rpm_limit\": 6, \"models\": [\"g\"]}",
                        "Authorization", "Bearer " + MASTER_KEY);
                assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
                String key = Json.parse(generated.body().getBytes(StandardCharsets.UTF_8)).path("key").asText();
                assertThat(key).startsWith("sk-");

                // The limit counts per UTC calendar minute: all twenty calls must fall in one.
                CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(10));

                Instant first = Instant.now();
                List<String> outcomes = new ArrayList<>();
                int admitted = 0;
                for (int i = 0; i < 20; i++) {
                    GatewayProcess replica = replicas.get(i % replicas.size());
                    HttpResponse<String> answer = replica.post("/v1/chat/completions", Chat.body("g", "hi"),
                            "Authorization", "Bearer " + key);
                    outcomes.add(replica.name() + ":" + answer.statusCode());
                    if (answer.statusCode() == 200) {
                        admitted++;
                    } else {
                        assertThat(answer.statusCode()).as("call %d through %s: %s", i, replica.name(), answer.body()).isEqualTo(429);
                        assertThat(answer.headers().firstValue("Retry-After")).as("call %d through %s", i, replica.name()).isPresent();
                    }
                }
                Instant last = Instant.now();
                assertThat(last.truncatedTo(ChronoUnit.MINUTES)).as("all calls in one calendar minute")
                        .isEqualTo(first.truncatedTo(ChronoUnit.MINUTES));
                assertThat(admitted).as("admitted across three replicas of one key with rpm_limit 6: %s", outcomes).isEqualTo(6);
                assertThat(upstream.requests()).as("calls that reached the upstream").isEqualTo(6);
            }
        }
    }

    @Test
    void leastBusyOnOneReplicaAvoidsADeploymentHoldingAStreamOpenedThroughAnother() throws Exception {
        try (ScriptedUpstream holding = ScriptedUpstream.always("holding", ScriptedUpstream.Reply.heldStream("holding", Duration.ofSeconds(5)));
                MockUpstream free = MockUpstream.start(MockOptions.defaults("free", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: holding}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %2$s}, model_info: {id: free}}
                      - {model_name: warm-up, litellm_params: {model: openai/b, api_base: %2$s}, model_info: {id: warm-up}}
                    router_settings:
                      routing_strategy: least-busy
                    """.formatted(holding.baseUrl(), free.baseUrl()) + redisSettings(TestRedis.PORT);
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1)) {
                awaitRouterState(replicas, CONNECTED, Duration.ofSeconds(5));
                warmUp(replicas);

                HttpResponse<InputStream> held = streamHeldOnHolding(a);
                Eventually.until("the stream is held open at its upstream", Duration.ofSeconds(10), () -> holding.open() == 1);
                // In-flight counts go out a few milliseconds after they change: wait until b counts the stream.
                String heldOnHolding = "sluice_deployment_in_flight{deployment=\"holding\",model_group=\"g\"}";
                Eventually.until("b counts the stream open on 'holding'", Duration.ofSeconds(10),
                        () -> MetricSamples.parse(b.get("/metrics").body()).getOrDefault(heldOnHolding, 0.0) == 1.0);

                for (int i = 0; i < 8; i++) {
                    HttpResponse<String> answer = b.post("/v1/chat/completions", Chat.body("g", "hi"));
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                    assertThat(answer.headers().firstValue("x-litellm-model-id"))
                            .as("call %d through b, while a holds a stream on 'holding'", i).hasValue("free");
                }
                assertThat(holding.calls()).as("b sent nothing to the busy deployment").isEqualTo(1);
                assertThat(holding.open()).as("the stream was still open during b's calls").isEqualTo(1);

                String body;
                try (InputStream in = held.body()) {
                    body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                assertThat(body).contains("[holding] first").endsWith("data: [DONE]\n\n");
            }
        }
    }

    @Test
    void withRedisCutEveryReplicaKeepsAnsweringAndBenchesAreSharedAgainOnceItIsBack() throws Exception {
        try (TcpProxy redis = TcpProxy.to(TestRedis.address());
                MockUpstream primary = MockUpstream.start(MockOptions.defaults("primary", MockMode.OK));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1000}, model_info: {id: primary}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: backup}}
                    router_settings:
                      allowed_fails: 0
                      cooldown_time: 30
                    """.formatted(primary.baseUrl(), backup.baseUrl()) + redisSettings(redis.port());
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1)) {
                awaitRouterState(replicas, CONNECTED, Duration.ofSeconds(5));
                assertPromptAnswers(replicas, "before the cut");

                redis.stop();
                assertPromptAnswers(replicas, "just after the cut");
                awaitRouterState(replicas, UNREACHABLE, Duration.ofSeconds(5));
                assertPromptAnswers(replicas, "once the replicas know Redis is gone");

                redis.resume();
                awaitRouterState(replicas, CONNECTED, Duration.ofSeconds(10));
                // Nothing failed while Redis was away, so nothing is benched anywhere yet.
                primary.setMode(MockMode.FAIL);
                assertBenchOnAIsHonouredByB(a, b, primary);
            }
        }
    }

    /**
     * One call through {@code a} fails on {@code failing} (weight 1000, {@code allowed_fails: 0})
     * and benches it, served by {@code backup}; calls through {@code b} that start within a
     * second of that answer never reach {@code failing}.
     */
    private static void assertBenchOnAIsHonouredByB(GatewayProcess a, GatewayProcess b, MockUpstream failing)
            throws InterruptedException {
        int before = failing.requests();
        HttpResponse<String> throughA = a.post("/v1/chat/completions", Chat.body("g", "hi"));
        long benchedAt = System.nanoTime();
        assertThat(throughA.statusCode()).as(throughA.body()).isEqualTo(200);
        assertThat(throughA.headers().firstValue("x-litellm-model-id")).hasValue("backup");
        assertThat(failing.requests()).as("a tried the failing deployment once").isEqualTo(before + 1);

        // The mock is named after its deployment: b must have seen the bench before its calls count.
        b.awaitMetric("b sees the bench a set", "sluice_deployment_benched{deployment=\"" + failing.name() + "\",model_group=\"g\"}", 1.0);
        long firstThroughB = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> throughB = b.post("/v1/chat/completions", Chat.body("g", "hi"));
            assertThat(throughB.statusCode()).as(throughB.body()).isEqualTo(200);
            assertThat(throughB.headers().firstValue("x-litellm-model-id")).hasValue("backup");
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(firstThroughB - benchedAt)).as("b's first call began within a second of the bench")
                .isLessThan(1_000);
        assertThat(failing.requests()).as("b never tried the deployment a benched").isEqualTo(before + 1);
    }

    /** Three chat calls through each replica, each answered 200 within two seconds. */
    private static void assertPromptAnswers(List<GatewayProcess> replicas, String when) {
        for (GatewayProcess replica : replicas) {
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                HttpResponse<String> answer = replica.send(HttpRequest.newBuilder(replica.uri("/v1/chat/completions"))
                        .timeout(Duration.ofSeconds(5))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(Chat.body("g", "hi")))
                        .build());
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(answer.statusCode()).as("%s, %s: %s", when, replica, answer.body()).isEqualTo(200);
                assertThat(took).as("%s, %s answered in ms", when, replica).isLessThan(2_000);
            }
        }
    }

    /** Opens streams through {@code a} until one lands on {@code holding} (least-busy breaks the idle tie at random). */
    private static HttpResponse<InputStream> streamHeldOnHolding(GatewayProcess a) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(a.uri("/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Chat.stream("g", "tell me a long story")))
                .build();
        List<String> landed = new ArrayList<>();
        for (int attempt = 0; attempt < 30; attempt++) {
            HttpResponse<InputStream> stream = a.client().send(request, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(stream.statusCode()).isEqualTo(200);
            String deployment = stream.headers().firstValue("x-litellm-model-id").orElse("(none)");
            if (deployment.equals("holding")) {
                return stream;
            }
            landed.add(deployment);
            try (InputStream in = stream.body()) {
                in.readAllBytes();
            }
        }
        throw new AssertionError("no stream through a landed on 'holding' in 30 tries: " + landed);
    }

    private static void warmUp(List<GatewayProcess> replicas) {
        for (GatewayProcess replica : replicas) {
            HttpResponse<String> answer = replica.post("/v1/chat/completions", Chat.body("warm-up", "hi"));
            assertThat(answer.statusCode()).as("%s warming up: %s", replica, answer.body()).isEqualTo(200);
        }
    }

    private static void awaitRouterState(List<GatewayProcess> replicas, String state, Duration timeout) {
        for (GatewayProcess replica : replicas) {
            Eventually.until(replica + " says " + state, timeout, () -> routerState(replica).equals(state));
        }
    }

    /** {@code router_state} of the replica's {@code /health/readiness}. */
    private static String routerState(GatewayProcess replica) {
        String body = replica.get("/health/readiness").body();
        try {
            return Json.parse(body.getBytes(StandardCharsets.UTF_8)).path("router_state").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(replica + ": readiness is not JSON: " + body, e);
        }
    }

    private String redisSettings(int port) {
        return TestRedis.routerSettings(port, prefix);
    }
}
