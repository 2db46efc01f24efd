package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.CalendarMinutes;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of the built jar, sharing PostgreSQL and Redis, while one of the stores is
 * away: a key's rate limit and budget are not multiplied by the replicas.
 */
class ReplicaOutagesIT {
    private static final String MASTER_KEY = "sk-1234";

    private final String prefix = TestRedis.newPrefix();

    @TempDir
    Path folder;

    @AfterEach
    void deleteRedisKeys() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aKeysRpmLimitIsSharedOutDuringARedisOutageAndWrittenBackWhenItReturns() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy redis = TcpProxy.to(TestRedis.address());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                    general_settings:
                      master_key: %s
                      %s
                    router_settings:
                    """.formatted(upstream.baseUrl(), MASTER_KEY, store.generalSetting()) + redisSettings(redis.port());
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1)) {
                for (GatewayProcess replica : replicas) {
                    Eventually.until(replica + " sees both replicas", Duration.ofSeconds(15),
                            () -> readiness(replica).path("redis").path("replicas_seen").asInt() == 2);
                }
                String key = generate(a, "{\"rpm_limit\": 10, \"models\": [\"g\"]}");
                // The limit counts per UTC calendar minute: the outage and its end must fall in one.
                CalendarMinutes.awayFromTheEnd(Duration.ofSeconds(40));
                long minute = Instant.now().getEpochSecond() / 60;

                redis.stop();
                for (GatewayProcess replica : replicas) {
                    Eventually.until(replica + " serves on local state", Duration.ofSeconds(10),
                            () -> !readiness(replica).path("redis").path("down_since").isMissingNode());
                }
                List<String> outcomes = new ArrayList<>();
                int admitted = spend(replicas, key, 20, outcomes);
                assertThat(admitted).as("each replica admits its half of rpm 10: %s", outcomes).isEqualTo(10);

                redis.resume();
                for (GatewayProcess replica : replicas) {
                    Eventually.until(replica + " shares state again", Duration.ofSeconds(15),
                            () -> readiness(replica).path("router_state").asText().equals("redis: connected"));
                }
                String window = prefix + "limits:api_key:" + VirtualKey.hash(key) + ":" + minute;
                Eventually.until("the outage's requests are in the shared counts", Duration.ofSeconds(10),
                        () -> "10".equals(TestRedis.command("HGET", window, "r")));
                int afterwards = spend(replicas, key, 6, outcomes);
                assertThat(afterwards).as("the minute's ten were spent during the outage: %s", outcomes).isZero();
                assertThat(Instant.now().getEpochSecond() / 60).as("all in one minute").isEqualTo(minute);
            }
        }
    }

    @Test
    void aBudgetIsSpentOnceAcrossReplicasDuringADatabaseOutage() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy database = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                    general_settings:
                      master_key: %s
                      %s
                    router_settings:
                    """.formatted(upstream.baseUrl(), MASTER_KEY, store.generalSettingThrough(database.port()))
                    + redisSettings(TestRedis.PORT);
            List<GatewayProcess> replicas = GatewayProcess.startAll(yaml, folder, "a", "b");
            try (GatewayProcess a = replicas.get(0); GatewayProcess b = replicas.get(1)) {
                HttpResponse<String> probe = a.post("/v1/chat/completions", Chat.body("g", "hello"),
                        "Authorization", "Bearer " + MASTER_KEY);
                double perCall = cost(probe);
                String key = generate(a, "{\"max_budget\": " + perCall * 10.5 + "}");
                assertThat(call(a, key).statusCode()).isEqualTo(200);
                assertThat(call(b, key).statusCode()).isEqualTo(200);

                database.stop();
                List<String> outcomes = new ArrayList<>();
                int admitted = spend(replicas, key, 30, outcomes);
                // 10.5 calls' worth: after the two above, nine more are admitted (the last one over), on both replicas
                // together. The replicas' Redis budget is roomy enough that neither decides alone on a busy machine.
                assertThat(admitted).as("admitted during the outage: %s", outcomes).isEqualTo(9);
                assertThat(outcomes).filteredOn(outcome -> outcome.endsWith(":200")).extracting(o -> o.substring(0, 1))
                        .as("both replicas served").contains("a", "b");
                database.resume();
            }
        }
    }

    /** {@code calls} calls alternating between the replicas; how many were admitted. Refusals must be 429 or 400. */
    private static int spend(List<GatewayProcess> replicas, String key, int calls, List<String> outcomes) {
        int admitted = 0;
        for (int i = 0; i < calls; i++) {
            GatewayProcess replica = replicas.get(i % replicas.size());
            HttpResponse<String> answer = call(replica, key);
            outcomes.add(replica.name() + ":" + answer.statusCode());
            if (answer.statusCode() == 200) {
                admitted++;
            } else {
                assertThat(answer.statusCode()).as("%s: %s", replica.name(), answer.body()).isIn(400, 429);
            }
        }
        return admitted;
    }

    private static HttpResponse<String> call(GatewayProcess replica, String key) {
        return replica.post("/v1/chat/completions", Chat.body("g", "hello"), "Authorization", "Bearer " + key);
    }

    private static String generate(GatewayProcess replica, String settings) throws IOException {
        HttpResponse<String> generated = replica.post("/key/generate", settings, "Authorization", "Bearer " + MASTER_KEY);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes(StandardCharsets.UTF_8)).path("key").asText();
    }

    private static double cost(HttpResponse<String> answer) {
        return Double.parseDouble(answer.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    private static JsonNode readiness(GatewayProcess replica) {
        String body = replica.get("/health/readiness").body();
        try {
            return Json.parse(body.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(replica + ": readiness is not JSON: " + body, e);
        }
    }

    private String redisSettings(int port) {
        return TestRedis.routerSettings(port, prefix);
    }
}
