package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/**
 * What a call holds of a budget while it runs, through the gateway: a call without
 * {@code max_tokens} holds what the group's answers really cost, so a fresh budget serves its
 * parallel calls; a call refused only because others hold the rest is told to retry (429),
 * in the shape of the API it called, and only spend that reached the budget is a 400.
 */
class BudgetHoldSizeTest {
    private static final String MASTER = "sk-1234";

    @Test
    void callsWithoutMaxTokensHoldWhatTheGroupsAnswersCostSoAFreshBudgetServesTheirParallelCalls() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(300)));
                TestGateway gateway = TestGateway.start(config(upstream, store.generalSetting()))) {
            double cost = costOf(call(gateway, MASTER));
            // Room for 20 such calls; held at 256 output tokens each, one or two would fit.
            String key = generate(gateway, cost * 20);

            ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();
            Concurrently.run(16, i -> statuses.add(call(gateway, key).statusCode()));

            assertThat(statuses).as("16 calls at once, on a budget with room for 20").hasSize(16).containsOnly(200);
        }
    }

    @Test
    void aCallRefusedOnlyByWhatCallsInFlightHoldIsToldToRetryInEachApisShapeAndSpendAtTheBudgetIsA400() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK).withDelay(Duration.ofSeconds(2)));
                TestGateway gateway = TestGateway.start(config(upstream, store.generalSetting()))) {
            double cost = costOf(call(gateway, MASTER));
            String key = generate(gateway, cost * 1.5);
            upstream.setMode(MockMode.SLOW);
            int before = upstream.requests();

            // Two calls in flight hold twice a call's cost of a budget of one and a half, none of it spent.
            List<CompletableFuture<HttpResponse<String>>> running = List.of(
                    CompletableFuture.supplyAsync(() -> call(gateway, key)), CompletableFuture.supplyAsync(() -> call(gateway, key)));
            Eventually.equal("calls in flight upstream", () -> upstream.requests() - before, 2);

            HttpResponse<String> chat = call(gateway, key);
            assertHeld(chat);
            assertThat(error(chat).path("type").asText()).isEqualTo("rate_limit_error");
            assertThat(error(chat).path("code").asText()).isEqualTo("budget_held_by_calls_in_flight");
            HttpResponse<String> messages = gateway.post("/v1/messages", """
                    {"model":"gpt-a","max_tokens":16,"messages":[{"role":"user","content":"hello"}]}""",
                    "x-api-key", key, "anthropic-version", "2023-06-01");
            assertHeld(messages);
            assertThat(body(messages).path("type").asText()).isEqualTo("error");
            assertThat(error(messages).path("type").asText()).isEqualTo("rate_limit_error");
            HttpResponse<String> responses = gateway.post("/v1/responses", "{\"model\":\"gpt-a\",\"input\":\"hello\"}",
                    "Authorization", "Bearer " + key);
            assertHeld(responses);
            assertThat(error(responses).path("code").asText()).isEqualTo("budget_held_by_calls_in_flight");

            for (CompletableFuture<HttpResponse<String>> call : running) {
                assertThat(call.join().statusCode()).isEqualTo(200);
            }
            HttpResponse<String> spent = call(gateway, key);
            assertThat(spent.statusCode()).as("two calls' cost spent of a budget of one and a half").isEqualTo(400);
            assertThat(error(spent).path("type").asText()).isEqualTo("budget_exceeded");
            assertThat(spent.headers().firstValue("Retry-After")).isEmpty();
        }
    }

    private static void assertHeld(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
        assertThat(answer.headers().firstValue("Retry-After")).contains("1");
        assertThat(error(answer).path("message").asText()).startsWith("Budget is held by calls in flight: Key=")
                .contains("Current cost: 0.0,", "Reserved by calls in flight: ");
    }

    /** A group whose prompts are free: a call costs its output tokens at 0.001 each. */
    private static String config(MockUpstream upstream, String storeSetting) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0, output_cost_per_token: 0.001}}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(upstream.baseUrl(), MASTER, storeSetting);
    }

    private static String generate(TestGateway gateway, double budget) throws Exception {
        HttpResponse<String> generated = gateway.post("/key/generate",
                "{\"max_budget\": " + BigDecimal.valueOf(budget).toPlainString() + "}", "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    /** A chat call that sets no max_tokens. */
    private static HttpResponse<String> call(TestGateway gateway, String key) {
        return gateway.post("/v1/chat/completions", "{\"model\":\"gpt-a\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}",
                "Authorization", "Bearer " + key);
    }

    private static JsonNode error(HttpResponse<String> answer) {
        return body(answer).path("error");
    }

    private static JsonNode body(HttpResponse<String> answer) {
        try {
            return Json.parse(answer.body().getBytes());
        } catch (java.io.IOException e) {
            throw new AssertionError(answer.body(), e);
        }
    }

    private static double costOf(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return Double.parseDouble(answer.headers().firstValue("x-litellm-response-cost").orElseThrow());
    }
}
