package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.RouterSettingRepository;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A gateway started while its PostgreSQL database is away listens within seconds, says the
 * database is unreachable (and, as it could check no virtual key, that it is not ready),
 * refuses what needs the store with a 503, and once the database
 * answers applies its schema and loads the stored router settings in the background.
 */
class StartDuringStoreOutageTest {
    private static final String MASTER = "sk-1234";

    @Test
    void listensAtOnceAndCatchesUpWhenTheDatabaseReturns() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            proxy.stop();
            // A setting stored by another replica while this one could not reach the database.
            new RouterSettingRepository(store.database()).write(Map.of("num_retries", "4"), List.of(), Instant.now());

            long started = System.nanoTime();
            try (TestGateway gateway = TestGateway.start("""
                    model_list:
                      - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s}}
                    general_settings:
                      master_key: %s
                      %s
                    """.formatted(upstream.baseUrl(), MASTER, store.generalSettingThrough(proxy.port())))) {
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("listening").isLessThan(Duration.ofSeconds(5));

                // No key held and no Redis to read copies from: no virtual key could be checked, and readiness says so.
                HttpResponse<String> notReady = gateway.get("/health/readiness");
                assertThat(notReady.statusCode()).isEqualTo(503);
                assertThat(readJson(notReady).path("db").asText()).startsWith("unreachable");
                assertThat(readJson(notReady).path("status").asText()).isEqualTo("unhealthy");
                assertThat(readJson(notReady).path("not_ready_reason").asText()).contains("virtual keys cannot be checked");
                HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hi"),
                        "Authorization", "Bearer sk-never-seen");
                assertThat(refused.statusCode()).isEqualTo(503);
                assertThat(Json.parse(refused.body().getBytes()).at("/error/code").asText()).isEqualTo("store_unavailable");
                assertThat(numRetries(gateway)).isNotEqualTo(4);

                proxy.resume();

                Eventually.until("readiness says the database is connected", Duration.ofSeconds(20),
                        () -> readiness(gateway).path("db").asText().equals("connected"));
                assertThat(gateway.get("/health/readiness").statusCode()).isEqualTo(200);
                Eventually.until("the stored router setting is served", Duration.ofSeconds(20), () -> numRetries(gateway) == 4);
                HttpResponse<String> generated = Eventually.value("a key is generated", Duration.ofSeconds(20), () -> {
                    HttpResponse<String> answer = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
                    return answer.statusCode() == 200 ? java.util.Optional.of(answer) : java.util.Optional.empty();
                });
                String key = Json.parse(generated.body().getBytes()).path("key").asText();
                // A key never seen is refused at once for a short back-off after a read found the store gone.
                Eventually.until("the new key is served", Duration.ofSeconds(10), () -> gateway.post("/v1/chat/completions",
                        Chat.body("gpt-a", "hi"), "Authorization", "Bearer " + key).statusCode() == 200);
            }
        }
    }

    private static int numRetries(TestGateway gateway) {
        return readJson(gateway.get("/router/settings", "Authorization", "Bearer " + MASTER))
                .path("current_values").path("num_retries").asInt(-1);
    }

    private static JsonNode readiness(TestGateway gateway) {
        return readJson(gateway.get("/health/readiness"));
    }

    private static JsonNode readJson(HttpResponse<String> response) {
        try {
            return Json.parse(response.body().getBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
