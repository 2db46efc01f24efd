package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.router.RouterEvents;
import dev.sluice.store.SpendRepository;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.MovableTicker;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing one PostgreSQL store: a key's budget spent through one is seen by the
 * other within a key refresh and a spend flush.
 */
class SharedBudgetTest {
    private static final String KEY_READS = "sluice_key_store_reads_total";
    private static final String MASTER = "sk-1234";

    @Test
    void aBudgetSpentThroughOneReplicaStopsTheKeyOnTheOther() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String config = config(store, upstream);
            try (TestGateway a = TestGateway.start(config); TestGateway b = TestGateway.start(config)) {
                double perCall = costOfOneCall(a);
                HttpResponse<String> generated = a.post("/key/generate", "{\"max_budget\": " + perCall * 3.5 + "}",
                        "Authorization", "Bearer " + MASTER);
                String key = Json.parse(generated.body().getBytes()).path("key").asText();

                // B reads the key first, then A spends the budget. B's probes go to a free group:
                // they are checked against the budget but add nothing to it, so only A's spend can stop them.
                assertThat(call(b, key, "free").statusCode()).isEqualTo(200);
                int admittedByA = 0;
                while (call(a, key, "gpt-a").statusCode() == 200) {
                    admittedByA++;
                }
                assertThat(admittedByA).isBetween(2, 4);

                assertThat(call(b, key, "free").statusCode()).as("B has not read the key again yet").isEqualTo(200);
                Eventually.until("B sees the spend A made", Duration.ofSeconds(15), () -> call(b, key, "free").statusCode() == 400);
            }
        }
    }

    @Test
    void aPerModelBudgetSpentThroughOneReplicaStopsThatModelOnTheOther() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String config = config(store, upstream);
            MovableTicker bTicker = new MovableTicker();
            try (TestGateway a = TestGateway.start(config);
                    TestGateway b = TestGateway.start(config, Map.of(), RouterEvents.NONE, new TimeSource(Clock.systemUTC(), bTicker))) {
                double perCall = costOfOneCall(a);
                HttpResponse<String> generated = a.post("/key/generate",
                        "{\"model_max_budget\": {\"gpt-a\": {\"budget_limit\": " + perCall * 2.5 + ", \"time_period\": \"1d\"}}}",
                        "Authorization", "Bearer " + MASTER);
                assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
                String key = Json.parse(generated.body().getBytes()).path("key").asText();

                // B reads the key (and seeds its gpt-a budget at nothing spent) before A spends it.
                assertThat(call(b, key, "free").statusCode()).isEqualTo(200);
                List<String> spentByA = new ArrayList<>();
                for (HttpResponse<String> byA = call(a, key, "gpt-a"); byA.statusCode() == 200; byA = call(a, key, "gpt-a")) {
                    spentByA.add(byA.headers().firstValue("x-litellm-call-id").orElseThrow());
                }
                assertThat(spentByA).hasSize(3);

                // Once B reads the key again (a 5 s cache, refreshed in the background on use) it
                // raises its count from the spend log, and its very first gpt-a call is refused.
                SpendRepository spendLog = new SpendRepository(store.database());
                Eventually.until("A's calls are in the spend log", Duration.ofSeconds(10),
                        () -> spentByA.stream().allMatch(id -> spendLog.find(id).isPresent()));
                double readsBefore = b.metric(KEY_READS);
                bTicker.advance(KeyDirectory.DEFAULT_TTL.plusMillis(1));
                assertThat(call(b, key, "free").statusCode()).isEqualTo(200);
                Eventually.until("B has read the key again", Duration.ofSeconds(10), () -> b.metric(KEY_READS) > readsBefore);
                HttpResponse<String> refused = call(b, key, "gpt-a");
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
                assertThat(refused.body()).contains("budget_exceeded");
            }
        }
    }

    /** Two groups on one upstream: gpt-a priced, free at no cost; the master key; the shared store. */
    private static String config(TestDatabase store, MockUpstream upstream) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                  - {model_name: free, litellm_params: {model: openai/f, api_base: %1$s, input_cost_per_token: 0, output_cost_per_token: 0}}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    /** What one "hello" to gpt-a costs, from a call with the master key (which no budget counts). */
    private static double costOfOneCall(TestGateway gateway) {
        HttpResponse<String> probe = gateway.post("/v1/chat/completions", Chat.body("gpt-a", "hello"), "Authorization", "Bearer " + MASTER);
        return Double.parseDouble(probe.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hello"), "Authorization", "Bearer " + key);
    }
}
