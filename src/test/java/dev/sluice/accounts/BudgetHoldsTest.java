package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Concurrently;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A key's budget under calls that run side by side, on one gateway and on two sharing Redis:
 * each admitted call holds its estimate until it ends, so together they overrun the budget
 * by at most one call; with Redis, a database outage does not split the budget between the
 * replicas either.
 */
class BudgetHoldsTest {
    private static final String MASTER = "sk-1234";
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void forgetKeys() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void parallelCallsOnOneGatewayOverrunABudgetByAtMostOneCall() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(400)));
                TestGateway gateway = TestGateway.start(config(upstream, store.generalSetting(), ""))) {
            Probe probe = Probe.of(gateway);
            String key = generate(gateway, probe.cost() * 3.5);

            List<Double> costs = spendInParallel(List.of(gateway), key, probe, 30);

            assertThat(costs).as("the calls admitted").isNotEmpty();
            assertThat(sum(costs)).as("what the calls cost, at most one call over the budget")
                    .isLessThanOrEqualTo(probe.cost() * 4.5);
        }
    }

    @Test
    void parallelCallsOnTwoReplicasSharingRedisOverrunABudgetByAtMostOneCall() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(400)))) {
            String config = config(upstream, store.generalSetting(), redis());
            try (TestGateway a = TestGateway.start(config); TestGateway b = TestGateway.start(config)) {
                Probe probe = Probe.of(a);
                String key = generate(a, probe.cost() * 3.5);

                List<Double> costs = spendInParallel(List.of(a, b), key, probe, 30);

                assertThat(costs).isNotEmpty();
                assertThat(sum(costs)).isLessThanOrEqualTo(probe.cost() * 4.5);
            }
        }
    }

    @Test
    void duringADatabaseOutageTwoReplicasSharingRedisSpendTheBudgetOnceNotTwice() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TcpProxy database = TcpProxy.to(TestDatabases.postgresAddress());
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            String config = config(upstream, store.generalSettingThrough(database.port()), redis());
            try (TestGateway a = TestGateway.start(config); TestGateway b = TestGateway.start(config)) {
                Probe probe = Probe.of(a);
                String key = generate(a, probe.cost() * 6.5);
                // Both replicas know the key before the database goes.
                assertThat(call(a, key, probe).statusCode()).isEqualTo(200);
                assertThat(call(b, key, probe).statusCode()).isEqualTo(200);

                database.stop();
                double spent = probe.cost() * 2;
                int admitted = 0;
                for (int i = 0; i < 40; i++) {
                    HttpResponse<String> answer = call(i % 2 == 0 ? a : b, key, probe);
                    if (answer.statusCode() == 200) {
                        admitted++;
                        spent += costOf(answer);
                    } else {
                        assertRefusedByTheBudget(answer);
                    }
                }
                assertThat(admitted).as("calls past the two made before the outage").isBetween(4, 5);
                assertThat(spent).isLessThanOrEqualTo(probe.cost() * 7.5);
            }
        }
    }

    /** What one call costs, and the completion tokens that make its estimate match that cost. */
    private record Probe(double cost, long completionTokens) {
        static Probe of(TestGateway gateway) throws Exception {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", body(1000), "Authorization", "Bearer " + MASTER);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            long tokens = Json.parse(answer.body().getBytes()).path("usage").path("completion_tokens").asLong();
            return new Probe(costOf(answer), tokens);
        }
    }

    /**
     * A priced group whose prompts are free: a call's estimate (its {@code max_tokens} at the
     * output price) is then what it costs, and the bounds above are tight.
     */
    private static String config(MockUpstream upstream, String storeSetting, String routerSettings) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0, output_cost_per_token: 0.001}}
                general_settings:
                  master_key: %s
                  %s
                %s
                """.formatted(upstream.baseUrl(), MASTER, storeSetting, routerSettings);
    }

    private String redis() {
        return "router_settings:\n" + TestRedis.routerSettings(TestRedis.PORT, prefix);
    }

    private static String generate(TestGateway gateway, double budget) throws Exception {
        HttpResponse<String> generated = gateway.post("/key/generate",
                "{\"max_budget\": " + BigDecimal.valueOf(budget).toPlainString() + "}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    /** {@code calls} calls at once, spread over {@code gateways}; the cost of each admitted one. */
    private static List<Double> spendInParallel(List<TestGateway> gateways, String key, Probe probe, int calls) throws Exception {
        ConcurrentLinkedQueue<Double> costs = new ConcurrentLinkedQueue<>();
        Concurrently.run(calls, i -> {
            HttpResponse<String> answer = call(gateways.get(i % gateways.size()), key, probe);
            if (answer.statusCode() == 200) {
                costs.add(costOf(answer));
            } else {
                assertRefusedByTheBudget(answer);
            }
        });
        return List.copyOf(costs);
    }

    /** Over budget (400), or held in full by calls in flight, to retry (429). */
    private static void assertRefusedByTheBudget(HttpResponse<String> answer) {
        if (answer.statusCode() == 429) {
            assertThat(answer.body()).contains("budget_held_by_calls_in_flight");
            assertThat(answer.headers().firstValue("Retry-After")).contains("1");
        } else {
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
            assertThat(answer.body()).contains("budget_exceeded");
        }
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, Probe probe) {
        return gateway.post("/v1/chat/completions", body(probe.completionTokens()), "Authorization", "Bearer " + key);
    }

    private static String body(long maxTokens) {
        return "{\"model\":\"gpt-a\",\"max_tokens\":" + maxTokens + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
    }

    private static double costOf(HttpResponse<String> answer) {
        return Double.parseDouble(answer.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }

    private static double sum(List<Double> costs) {
        return costs.stream().mapToDouble(Double::doubleValue).sum();
    }
}
