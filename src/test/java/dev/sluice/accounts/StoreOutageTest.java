package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.MovableTicker;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The database goes away under a running gateway (its connection is cut by a proxy) and
 * comes back: keys already seen keep working, a key never seen is refused with a 503,
 * readiness tells, and every spend row reaches the database once it returns.
 */
class StoreOutageTest {
    private static final String MASTER = "sk-1234";

    @Test
    void keysSeenKeepWorkingAndEverySpendRowLandsWhenTheDatabaseReturns() throws Exception {
        MovableTicker ticker = new MovableTicker();
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                        general_settings:
                          master_key: %s
                          %s
                        """.formatted(upstream.baseUrl(), MASTER, store.generalSettingThrough(proxy.port())), Map.of(), RouterEvents.NONE,
                        new TimeSource(Clock.systemUTC(), ticker))) {
            String seen = generate(gateway);
            String unseen = generate(gateway);
            List<String> calls = new ArrayList<>();
            List<Double> costs = new ArrayList<>();
            call(gateway, seen, calls, costs);

            proxy.stop();
            // Past the key cache's lifetime, so the gateway must go to the database and find it gone.
            ticker.advance(KeyDirectory.DEFAULT_TTL.plusMillis(1));
            for (int i = 0; i < 20; i++) {
                call(gateway, seen, calls, costs);
            }
            HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hi"), "Authorization", "Bearer " + unseen);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(Json.parse(refused.body().getBytes()).path("error").path("code").asText()).isEqualTo("store_unavailable");
            JsonNode ready = Json.parse(gateway.get("/health/readiness").body().getBytes());
            assertThat(ready.path("db").asText()).startsWith("unreachable");
            Eventually.until("spend rows are buffered on disk", Duration.ofSeconds(10), () -> readiness(gateway)
                    .path("spend_log").path("rows_buffered_on_disk").asLong() > 0);

            proxy.resume();

            SpendRepository spendLog = new SpendRepository(store.database());
            Eventually.until("every call's spend row is in the database", Duration.ofSeconds(20),
                    () -> calls.stream().allMatch(id -> spendLog.find(id).isPresent()));
            BigDecimal sum = costs.stream().map(BigDecimal::valueOf).reduce(BigDecimal.ZERO, BigDecimal::add);
            KeyRepository keys = new KeyRepository(store.database());
            Eventually.until("the key's spend is the exact sum of its calls", Duration.ofSeconds(10),
                    () -> keys.findByHash(VirtualKey.hash(seen)).orElseThrow().budget().spend().compareTo(sum) == 0);
            assertThat(readiness(gateway).path("db").asText()).isEqualTo("connected");
            // While the store is known down unseen keys are refused at once; one background read per back-off
            // tries the store, and once one has found it back they are read again.
            Eventually.until("the unseen key is served", Duration.ofSeconds(10), () -> {
                ticker.advance(KeyDirectory.OUTAGE_BACKOFF);
                return gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hi"), "Authorization", "Bearer " + unseen)
                        .statusCode() == 200;
            });
        }
    }

    private static String generate(TestGateway gateway) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    private static void call(TestGateway gateway, String key, List<String> calls, List<Double> costs) {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hello"), "Authorization", "Bearer " + key);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        calls.add(answer.headers().firstValue("x-litellm-call-id").orElseThrow());
        costs.add(Double.parseDouble(answer.headers().firstValue("x-litellm-response-cost").orElseThrow()));
    }

    private static JsonNode readiness(TestGateway gateway) {
        try {
            return Json.parse(gateway.get("/health/readiness").body().getBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
