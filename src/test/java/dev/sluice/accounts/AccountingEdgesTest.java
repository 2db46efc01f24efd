package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The ways a call can end other than a plain answer, and the admin changes that must reach
 * the counters: each leaves the caller's limits and budgets exact.
 */
class AccountingEdgesTest {
    private static final String MASTER = "sk-1234";
    private static final String PRICES = "input_cost_per_token: 0.000001, output_cost_per_token: 0.000002";

    private static String config(TestDatabase store, String models, String extra) {
        return """
                model_list:
                %s
                router_settings: {num_retries: 0}
                %s
                general_settings:
                  master_key: %s
                  %s
                """.formatted(models, extra, MASTER, store.generalSetting());
    }

    /** A new virtual key made with the master key: {@code body} as sent to /key/generate. */
    static String generate(TestGateway gateway, String body) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", body, "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String body, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Authorization";
        all[1] = "Bearer " + key;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return gateway.post("/v1/chat/completions", body, all);
    }

    @StoreTest
    void aCallerReusingItsOwnCallIdIsChargedForEveryCall(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES), ""))) {
            String key = generate(gateway, "{}");
            BigDecimal sum = BigDecimal.ZERO;
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> answer = call(gateway, key, Chat.body("gpt-a", "hello"), "x-litellm-call-id", "my-retry-1");
                assertThat(answer.headers().firstValue("x-litellm-call-id")).hasValue("my-retry-1");
                sum = sum.add(new BigDecimal(answer.headers().firstValue("x-litellm-response-cost").orElseThrow()));
            }
            BigDecimal expected = sum;
            KeyRepository keys = new KeyRepository(store.database());
            Eventually.until("the key's stored spend is the sum of all three calls", Duration.ofSeconds(10),
                    () -> keys.findByHash(VirtualKey.hash(key)).orElseThrow().budget().spend().compareTo(expected) == 0);
            assertThat(new SpendRepository(store.database()).count()).isEqualTo(3);
        }
    }

    @StoreTest
    void aGuardrailRefusalOfAnAnswerIsChargedAndItsPermitReturned(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("zebra", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES), """
                        guardrails:
                          - guardrail_name: no-zebras
                            litellm_params: {guardrail: litellm_content_filter, mode: post_call, default_on: true, blocked_words: [zebra]}
                        """))) {
            String key = generate(gateway, "{\"max_parallel_requests\": 1}");

            HttpResponse<String> refused = call(gateway, key, Chat.body("gpt-a", "hello"));

            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(Double.parseDouble(refused.headers().firstValue("x-litellm-response-cost").orElseThrow())).isPositive();
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).as("the permit came back").isEqualTo(400);
        }
    }

    @StoreTest
    void aStreamCutByTheUpstreamOrLeftByTheCallerReturnsItsPermit(TestDatabase store) throws Exception {
        try (MockUpstream cut = MockUpstream.start(MockOptions.defaults("cut", MockMode.CUT));
                MockUpstream slow = MockUpstream.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofSeconds(3)));
                MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: cut, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: slow, litellm_params: {model: openai/a, api_base: %s}}
                          - {model_name: ok, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(cut.baseUrl(), slow.baseUrl(), ok.baseUrl()), ""))) {
            String key = generate(gateway, "{\"max_parallel_requests\": 1}");

            String broken = gateway.rawChat("HTTP/1.1", key, Chat.stream("cut", "hello"));
            assertThat(broken).contains("stream_interrupted");
            assertThat(call(gateway, key, Chat.body("ok", "hello")).statusCode()).isEqualTo(200);

            // Hung up once the call is admitted and upstream: no later call can be admitted before it.
            try (java.net.Socket caller = new java.net.Socket("127.0.0.1", gateway.port())) {
                byte[] body = Chat.stream("slow", "hello").getBytes(java.nio.charset.StandardCharsets.UTF_8);
                caller.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + key
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                caller.getOutputStream().write(body);
                Eventually.until("the slow call reaches its upstream", Duration.ofSeconds(5), () -> slow.requests() == 1);
            }
            Eventually.until("the caller's permit comes back after it hung up", Duration.ofSeconds(5),
                    () -> call(gateway, key, Chat.body("ok", "hello")).statusCode() == 200);

            String http10 = gateway.rawChat("HTTP/1.0", key, Chat.stream("ok", "hello"));
            assertThat(http10).startsWith("HTTP/1.0 200").contains("data: [DONE]");
            assertThat(call(gateway, key, Chat.body("ok", "hello")).statusCode()).isEqualTo(200);
        }
    }

    @StoreTest
    void aChangedBudgetPeriodAndATeamMadeAgainStartFromTheStore(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES), ""))) {
            String key = generate(gateway, "{\"max_budget\": 0.000001}");
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(200);
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(400);

            // A period of one second from now: the key's spend starts again when it ends.
            assertThat(gateway.post("/key/update", "{\"key\": \"" + key + "\", \"budget_duration\": \"1s\"}",
                    "Authorization", "Bearer " + MASTER).statusCode()).isEqualTo(200);
            Eventually.until("the new period admits the key", Duration.ofSeconds(5),
                    () -> call(gateway, key, Chat.body("gpt-a", "hello")).statusCode() == 200);

            // A team deleted and made again under its id starts with nothing spent.
            assertThat(gateway.post("/team/new", "{\"team_id\": \"t1\", \"max_budget\": 0.000001}",
                    "Authorization", "Bearer " + MASTER).statusCode()).isEqualTo(200);
            String member = generate(gateway, "{\"team_id\": \"t1\"}");
            assertThat(call(gateway, member, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(200);
            assertThat(call(gateway, member, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(400);
            assertThat(gateway.post("/team/delete", "{\"team_ids\": [\"t1\"]}", "Authorization", "Bearer " + MASTER)
                    .statusCode()).isEqualTo(200);
            assertThat(gateway.post("/team/new", "{\"team_id\": \"t1\", \"max_budget\": 1}",
                    "Authorization", "Bearer " + MASTER).statusCode()).isEqualTo(200);
            String newMember = generate(gateway, "{\"team_id\": \"t1\"}");
            assertThat(call(gateway, newMember, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(200);
        }
    }

    @StoreTest
    void aMonthlyBudgetStartsAgainWhenTheMonthTurnsOnTheGatewaysClock(TestDatabase store) throws Exception {
        FakeClock clock = new FakeClock(Instant.parse("2026-01-31T23:59:00Z"));
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, """
                          - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %s, %s}}
                        """.formatted(upstream.baseUrl(), PRICES), ""), Map.of(), RouterEvents.NONE, clock)) {
            String key = generate(gateway, "{\"max_budget\": 0.000001, \"budget_duration\": \"1mo\"}");
            JsonNode info = Json.parse(gateway.get("/key/info?key=" + key, "Authorization", "Bearer " + MASTER).body().getBytes());
            assertThat(info.path("info").path("budget_reset_at").asText()).isEqualTo("2026-02-01T00:00:00Z");
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(200);

            clock.set(Instant.parse("2026-01-31T23:59:59.999Z"));
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(400);
            clock.set(Instant.parse("2026-02-01T00:00:00Z"));
            assertThat(call(gateway, key, Chat.body("gpt-a", "hello")).statusCode()).isEqualTo(200);
        }
    }

}
