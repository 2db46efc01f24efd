package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.VirtualKey;
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
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas of the built jar sharing PostgreSQL (behind a TCP proxy, to cut it) and Redis: a
 * replica started during a database outage, and one restarted during it, serve a key used
 * before the outage from its copy in Redis, and say they are ready; a key blocked through the
 * API before the outage has no copy left to serve it.
 */
class KeyCopiesIT {
    private static final String MASTER_KEY = "sk-1234";

    private final String prefix = TestRedis.newPrefix();

    @TempDir
    Path folder;

    @AfterEach
    void deleteRedisKeys() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void replicasStartedOrRestartedDuringADatabaseOutageServeKeysUsedBeforeIt() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy database = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String yaml = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                    general_settings:
                      master_key: %s
                      %s
                    router_settings:
                    """.formatted(upstream.baseUrl(), MASTER_KEY, store.generalSettingThrough(database.port()))
                    + TestRedis.routerSettings(TestRedis.PORT, prefix);
            String used;
            String blocked;
            try (GatewayProcess first = GatewayProcess.start("first", yaml, folder)) {
                used = generate(first);
                blocked = generate(first);
                assertThat(call(first, used).statusCode()).isEqualTo(200);
                assertThat(call(first, blocked).statusCode()).isEqualTo(200);
                String copy = prefix + "key_copies:" + VirtualKey.hash(used);
                Eventually.until("the used key's copy is in Redis", Duration.ofSeconds(10), () -> TestRedis.command("GET", copy) != null);
                assertThat(TestRedis.command("GET", copy)).as("the key itself is never written").doesNotContain(used);
                Eventually.until("the blocked key's copy is in Redis", Duration.ofSeconds(10),
                        () -> TestRedis.command("GET", prefix + "key_copies:" + VirtualKey.hash(blocked)) != null);
                HttpResponse<String> block = first.post("/key/block", "{\"key\": \"" + blocked + "\"}",
                        "Authorization", "Bearer " + MASTER_KEY);
                assertThat(block.statusCode()).as(block.body()).isEqualTo(200);
                Eventually.until("the blocked key's copy is dropped", Duration.ofSeconds(5),
                        () -> TestRedis.command("GET", prefix + "key_copies:" + VirtualKey.hash(blocked)) == null);

                database.stop();
                first.kill();
            }

            try (GatewayProcess restarted = GatewayProcess.start("restarted", yaml, folder)) {
                JsonNode ready = readiness(restarted, 200);
                assertThat(ready.path("db").asText()).startsWith("unreachable");
                HttpResponse<String> served = call(restarted, used);
                assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
                HttpResponse<String> refused = call(restarted, blocked);
                assertThat(refused.statusCode()).as("a key blocked before the outage has no copy: %s", refused.body())
                        .isEqualTo(503);
                HttpResponse<String> unseen = call(restarted, "sk-never-seen");
                assertThat(unseen.statusCode()).isEqualTo(503);
                assertThat(Json.parse(unseen.body().getBytes(StandardCharsets.UTF_8)).at("/error/code").asText())
                        .isEqualTo("store_unavailable");
            }
        }
    }

    private static String generate(GatewayProcess replica) throws IOException {
        HttpResponse<String> generated = replica.post("/key/generate", "{\"models\": [\"g\"]}", "Authorization", "Bearer " + MASTER_KEY);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes(StandardCharsets.UTF_8)).path("key").asText();
    }

    private static HttpResponse<String> call(GatewayProcess replica, String key) {
        return replica.post("/v1/chat/completions", Chat.body("g", "hello"), "Authorization", "Bearer " + key);
    }

    private static JsonNode readiness(GatewayProcess replica, int status) throws IOException {
        HttpResponse<String> answer = replica.get("/health/readiness");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        return Json.parse(answer.body().getBytes(StandardCharsets.UTF_8));
    }
}
