package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The router settings API over HTTP: {@code GET /router/settings} says where each value comes
 * from, {@code POST /router/settings/update} changes a setting for the next request (counted
 * at the mock upstreams), refuses a bad value naming it and changing nothing, and a change
 * reaches another gateway sharing the PostgreSQL store, survives a restart, and is undone by
 * {@code null}.
 */
class RouterSettingsApiTest {
    private static final String MASTER = "sk-admin";

    private static HttpResponse<String> update(TestGateway gateway, String body) {
        return gateway.post("/router/settings/update", body, "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode settings(TestGateway gateway) {
        HttpResponse<String> answer = gateway.get("/router/settings", "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json(answer).path("settings");
    }

    private static HttpResponse<String> chat(TestGateway gateway, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hi"), "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.parse(response.body().getBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One failing group {@code flaky} on {@code failing}, one healthy group {@code backup}, master key, embedded store. */
    private static String failingAndBackup(MockUpstream failing, MockUpstream healthy, String routerSettings) {
        return """
                model_list:
                  - {model_name: flaky, litellm_params: {model: openai/flaky, api_base: %s}, model_info: {id: flaky-1}}
                  - {model_name: backup, litellm_params: {model: openai/backup, api_base: %s}, model_info: {id: backup-1}}
                router_settings: %s
                general_settings:
                  master_key: %s
                """.formatted(failing.baseUrl(), healthy.baseUrl(), routerSettings, MASTER);
    }

    @Test
    void getSaysWhereEachValueComesFrom() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(failingAndBackup(failing, healthy, "{num_retries: 1}")
                        + "litellm_settings: {request_timeout: 30}\n")) {
            JsonNode before = settings(gateway);
            assertThat(before.path("num_retries").path("value").asInt()).isEqualTo(1);
            assertThat(before.path("num_retries").path("source").asText()).isEqualTo("config file");
            assertThat(before.path("num_retries").path("config_key").asText()).isEqualTo("router_settings.num_retries");
            assertThat(before.path("timeout").path("value").asInt()).isEqualTo(30);
            assertThat(before.path("timeout").path("config_key").asText()).isEqualTo("litellm_settings.request_timeout");
            assertThat(before.path("routing_strategy").path("value").asText()).isEqualTo("simple-shuffle");
            assertThat(before.path("routing_strategy").path("source").asText()).isEqualTo("default");
            assertThat(before.path("redis_host").path("updatable").asBoolean()).isFalse();
            assertThat(before.path("cooldown_time").path("updatable").asBoolean()).isTrue();
            assertThat(before.path("max_client_timeout").path("value").asInt()).as("follows timeout").isEqualTo(30);

            HttpResponse<String> changed = update(gateway, "{\"num_retries\": \"3\", \"timeout\": 12.5}");
            assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
            assertThat(json(changed).path("updated")).hasSize(2);

            JsonNode after = settings(gateway);
            assertThat(after.path("num_retries").path("value").asInt()).as("kept in canonical form").isEqualTo(3);
            assertThat(after.path("num_retries").path("value").isInt()).isTrue();
            assertThat(after.path("num_retries").path("source").asText()).isEqualTo("database");
            assertThat(after.path("num_retries").has("config_key")).isFalse();
            assertThat(after.path("num_retries").path("reset_to").path("value").asInt()).isEqualTo(1);
            assertThat(after.path("num_retries").path("reset_to").path("source").asText()).isEqualTo("config file");
            assertThat(after.path("timeout").path("value").asDouble()).isEqualTo(12.5);
            assertThat(after.path("max_client_timeout").path("value").asDouble()).as("still follows timeout").isEqualTo(12.5);
            assertThat(after.path("routing_strategy").path("source").asText()).isEqualTo("default");
            JsonNode flat = json(gateway.get("/router/settings", "Authorization", "Bearer " + MASTER)).path("current_values");
            assertThat(flat.path("num_retries").asInt()).isEqualTo(3);
        }
    }

    @Test
    void numRetriesChangedLiveBindsTheNextRequestAndACallerOverrideStillWins() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(failingAndBackup(failing, healthy, "{num_retries: 2}"))) {
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(500);
            assertThat(failing.requests()).as("the first call and two retries").isEqualTo(3);

            assertThat(update(gateway, "{\"num_retries\": 0}").statusCode()).isEqualTo(200);
            HttpResponse<String> once = chat(gateway, "flaky");
            assertThat(once.statusCode()).isEqualTo(500);
            assertThat(failing.requests()).as("no retry any more").isEqualTo(4);
            assertThat(once.headers().firstValue("x-litellm-attempted-retries")).hasValue("0");

            HttpResponse<String> overridden = gateway.post("/v1/chat/completions",
                    "{\"model\":\"flaky\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                            + "\"router_settings_override\":{\"num_retries\":1}}",
                    "Authorization", "Bearer " + MASTER);
            assertThat(overridden.statusCode()).isEqualTo(500);
            assertThat(failing.requests()).as("the caller's own count is over the new base").isEqualTo(6);
        }
    }

    @Test
    void fallbacksAddedLiveMakeAFailingGroupFallBackAndNullTakesThemAway() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(failingAndBackup(failing, healthy, "{num_retries: 0}"))) {
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(500);
            assertThat(healthy.requests()).isZero();

            HttpResponse<String> added = update(gateway, "{\"fallbacks\": [{\"flaky\": [\"backup\"]}]}");
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
            HttpResponse<String> fellBack = chat(gateway, "flaky");
            assertThat(fellBack.statusCode()).as(fellBack.body()).isEqualTo(200);
            assertThat(fellBack.headers().firstValue("x-litellm-model-group")).hasValue("backup");
            assertThat(fellBack.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            assertThat(healthy.requests()).isEqualTo(1);
            assertThat(settings(gateway).path("fallbacks").path("value").toString()).isEqualTo("[{\"flaky\":[\"backup\"]}]");

            HttpResponse<String> removed = update(gateway, "{\"fallbacks\": null}");
            assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
            assertThat(json(removed).path("reset").get(0).asText()).isEqualTo("fallbacks");
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(500);
            assertThat(healthy.requests()).as("no fallback once reset").isEqualTo(1);
            assertThat(settings(gateway).path("fallbacks").path("source").asText()).isEqualTo("default");
        }
    }

    @Test
    void routingStrategyChangedLiveIsUsedForTheNextPick() throws Exception {
        try (MockUpstream cheap = MockUpstream.start(MockOptions.defaults("cheap", MockMode.OK));
                MockUpstream pricey = MockUpstream.start(MockOptions.defaults("pricey", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000001}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, input_cost_per_token: 0.001, output_cost_per_token: 0.001}}
                        general_settings: {master_key: %s}
                        """.formatted(cheap.baseUrl(), pricey.baseUrl(), MASTER))) {
            for (int i = 0; i < 20; i++) {
                assertThat(chat(gateway, "g").statusCode()).isEqualTo(200);
            }
            assertThat(pricey.requests()).as("simple-shuffle spreads the calls").isPositive();
            assertThat(cheap.requests()).isPositive();

            assertThat(update(gateway, "{\"routing_strategy\": \"cost-based-routing\"}").statusCode()).isEqualTo(200);
            int priceyBefore = pricey.requests();
            int cheapBefore = cheap.requests();
            for (int i = 0; i < 10; i++) {
                assertThat(chat(gateway, "g").statusCode()).isEqualTo(200);
            }
            assertThat(pricey.requests()).as("cost-based-routing picks the cheapest every time").isEqualTo(priceyBefore);
            assertThat(cheap.requests()).isEqualTo(cheapBefore + 10);
        }
    }

    @Test
    void timeoutChangedLiveCutsTheNextCallAndResetRestoresIt() throws Exception {
        try (MockUpstream slow = MockUpstream.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(2_000)));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(failingAndBackup(slow, healthy, "{num_retries: 0, timeout: 10}"))) {
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(200);

            assertThat(update(gateway, "{\"timeout\": 0.3}").statusCode()).isEqualTo(200);
            long started = System.nanoTime();
            HttpResponse<String> cut = chat(gateway, "flaky");
            assertThat(cut.statusCode()).as(cut.body()).isEqualTo(408);
            assertThat(json(cut).path("error").path("code").asText()).isEqualTo("upstream_timeout");
            // Cut at 0.3 s, long before the upstream's 2 s, with room for a loaded machine.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1_700));

            assertThat(update(gateway, "{\"timeout\": null}").statusCode()).isEqualTo(200);
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(200);
            assertThat(settings(gateway).path("timeout").path("value").asInt()).isEqualTo(10);
        }
    }

    /** Two deployments in one group, one failing: whether it gets benched shows in how many calls reach it. */
    private static String halfFailing(MockUpstream failing, MockUpstream healthy, String routerSettings) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: failing-1}}
                  - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: healthy-1}}
                router_settings: %s
                general_settings: {master_key: %s}
                """.formatted(failing.baseUrl(), healthy.baseUrl(), routerSettings, MASTER);
    }

    private static void calls(TestGateway gateway, int count) {
        for (int i = 0; i < count; i++) {
            HttpResponse<String> answer = chat(gateway, "g");
            assertThat(answer.statusCode()).as("the healthy sibling serves: " + answer.body()).isEqualTo(200);
        }
    }

    @Test
    void allowedFailsChangedLiveBenchesAFailingDeployment() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(halfFailing(failing, healthy, "{allowed_fails: 1000, cooldown_time: 60}"))) {
            calls(gateway, 12);
            int failedBefore = failing.requests();
            assertThat(failedBefore).as("within its allowance it keeps getting calls").isGreaterThan(1);

            assertThat(update(gateway, "{\"allowed_fails\": 0}").statusCode()).isEqualTo(200);
            Eventually.until("the failing deployment is benched", Duration.ofSeconds(5), () -> {
                calls(gateway, 1);
                return failing.requests() > failedBefore;
            });
            int benchedAt = failing.requests();
            calls(gateway, 12);
            assertThat(failing.requests()).as("benched for cooldown_time after one failure").isEqualTo(benchedAt);
        }
    }

    @Test
    void cooldownTimeChangedLiveBenchesWhereZeroDidNot() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(halfFailing(failing, healthy, "{allowed_fails: 0, cooldown_time: 0}"))) {
            calls(gateway, 12);
            int failedBefore = failing.requests();
            assertThat(failedBefore).as("cooldown_time 0 benches nothing").isGreaterThan(1);

            assertThat(update(gateway, "{\"cooldown_time\": 60}").statusCode()).isEqualTo(200);
            Eventually.until("the failing deployment is benched", Duration.ofSeconds(5), () -> {
                calls(gateway, 1);
                return failing.requests() > failedBefore;
            });
            int benchedAt = failing.requests();
            calls(gateway, 12);
            assertThat(failing.requests()).as("benched for the new cooldown_time").isEqualTo(benchedAt);
            assertThat(settings(gateway).path("cooldown_time").path("source").asText()).isEqualTo("database");
        }
    }

    @Test
    void badValuesAreRefusedNamingTheFieldAndChangeNothing() throws Exception {
        try (MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start(failingAndBackup(failing, healthy, "{num_retries: 2}"))) {
            HttpResponse<String> negative = update(gateway, "{\"num_retries\": -1}");
            assertThat(negative.statusCode()).isEqualTo(400);
            JsonNode error = json(negative).path("error");
            assertThat(error.path("param").asText()).isEqualTo("num_retries");
            assertThat(error.path("code").asText()).isEqualTo("invalid_value");
            assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(error.path("message").asText()).contains("num_retries: -1 (expected: >= 0)");

            HttpResponse<String> mixed = update(gateway, "{\"num_retries\": 0, \"timeout\": -5}");
            assertThat(mixed.statusCode()).isEqualTo(400);
            assertThat(json(mixed).path("error").path("param").asText()).isEqualTo("timeout");
            assertThat(json(mixed).path("error").path("message").asText()).contains("timeout: -5 (expected: > 0)");

            HttpResponse<String> unknownGroup = update(gateway, "{\"fallbacks\": [{\"flaky\": [\"nope\"]}]}");
            assertThat(unknownGroup.statusCode()).isEqualTo(400);
            assertThat(json(unknownGroup).path("error").path("param").asText()).isEqualTo("fallbacks");
            assertThat(json(unknownGroup).path("error").path("message").asText())
                    .contains("fallbacks[0].flaky[0]: nope (expected: a model_name from model_list: backup, flaky)");

            HttpResponse<String> strategy = update(gateway, "{\"routing_strategy\": \"fastest\"}");
            assertThat(strategy.statusCode()).isEqualTo(400);
            assertThat(json(strategy).path("error").path("param").asText()).isEqualTo("routing_strategy");

            HttpResponse<String> fixed = update(gateway, "{\"redis_host\": \"elsewhere\"}");
            assertThat(fixed.statusCode()).isEqualTo(400);
            assertThat(json(fixed).path("error").path("code").asText()).isEqualTo("setting_not_updatable");
            assertThat(json(fixed).path("error").path("param").asText()).isEqualTo("redis_host");

            HttpResponse<String> unknown = update(gateway, "{\"num_retry\": 1}");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(json(unknown).path("error").path("code").asText()).isEqualTo("unknown_setting");

            HttpResponse<String> fromEnvironment = update(gateway, "{\"num_retries\": \"os.environ/RETRIES\"}");
            assertThat(fromEnvironment.statusCode()).isEqualTo(400);
            assertThat(json(fromEnvironment).path("error").path("param").asText()).isEqualTo("num_retries");

            assertThat(update(gateway, "{}").statusCode()).isEqualTo(400);
            assertThat(update(gateway, "[1]").statusCode()).isEqualTo(400);

            JsonNode unchanged = settings(gateway);
            assertThat(unchanged.path("num_retries").path("value").asInt()).isEqualTo(2);
            assertThat(unchanged.path("num_retries").path("source").asText()).isEqualTo("config file");
            assertThat(unchanged.path("fallbacks").path("source").asText()).isEqualTo("default");
            assertThat(chat(gateway, "flaky").statusCode()).isEqualTo(500);
            assertThat(failing.requests()).as("still two retries: the refused change left num_retries alone").isEqualTo(3);
        }
    }

    @Test
    void onlyTheMasterKeyReadsOrChangesTheSettings() throws Exception {
        try (MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway withKey = TestGateway.start(failingAndBackup(healthy, healthy, "{}"));
                TestGateway open = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        """.formatted(healthy.baseUrl()))) {
            String key = json(withKey.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER)).path("key").asText();
            assertThat(withKey.get("/router/settings", "Authorization", "Bearer " + key).statusCode()).isEqualTo(403);
            assertThat(withKey.post("/router/settings/update", "{\"num_retries\": 0}", "Authorization", "Bearer " + key)
                    .statusCode()).isEqualTo(403);
            assertThat(withKey.get("/router/settings").statusCode()).isEqualTo(401);

            HttpResponse<String> refused = open.get("/router/settings");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(json(refused).path("error").path("code").asText()).isEqualTo("master_key_required");
            assertThat(json(refused).path("error").path("message").asText())
                    .isEqualTo("Managing router settings needs a master key: set general_settings.master_key.");
            assertThat(open.post("/router/settings/update", "{\"num_retries\": 0}").statusCode()).isEqualTo(403);
            assertThat(settings(withKey).path("num_retries").path("source").asText()).isEqualTo("default");
        }
    }

    private static String shared(TestDatabase store, MockUpstream failing, MockUpstream healthy) {
        return """
                model_list:
                  - {model_name: flaky, litellm_params: {model: openai/flaky, api_base: %s}, model_info: {id: flaky-1}}
                  - {model_name: backup, litellm_params: {model: openai/backup, api_base: %s}, model_info: {id: backup-1}}
                router_settings: {num_retries: 2}
                general_settings:
                  master_key: %s
                  %s
                """.formatted(failing.baseUrl(), healthy.baseUrl(), MASTER, store.generalSetting());
    }

    /** How many upstream calls one call to {@code flaky} made. */
    private static int callsMade(TestGateway gateway, MockUpstream failing) {
        int before = failing.requests();
        chat(gateway, "flaky");
        return failing.requests() - before;
    }

    @Test
    void aChangeThroughOneGatewayReachesTheOtherSurvivesARestartAndNullRestoresTheFile() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK))) {
            try (TestGateway a = TestGateway.start(shared(store, failing, healthy));
                    TestGateway b = TestGateway.start(shared(store, failing, healthy))) {
                assertThat(callsMade(b, failing)).isEqualTo(3);

                HttpResponse<String> changed = update(a, "{\"num_retries\": 0, \"fallbacks\": [{\"flaky\": [\"backup\"]}]}");
                assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
                assertThat(callsMade(a, failing)).as("the replica that took the change, at once").isEqualTo(1);

                Eventually.until("b serves the change", Duration.ofSeconds(6),
                        () -> settings(b).path("num_retries").path("source").asText().equals("database"));
                int healthyBefore = healthy.requests();
                assertThat(callsMade(b, failing)).isEqualTo(1);
                assertThat(healthy.requests()).as("b falls back too").isEqualTo(healthyBefore + 1);
                assertThat(settings(b).path("fallbacks").path("value").toString()).isEqualTo("[{\"flaky\":[\"backup\"]}]");
            }
            try (TestGateway restarted = TestGateway.start(shared(store, failing, healthy))) {
                assertThat(callsMade(restarted, failing)).as("the stored value from the first request").isEqualTo(1);
                assertThat(settings(restarted).path("num_retries").path("source").asText()).isEqualTo("database");

                HttpResponse<String> reset = update(restarted, "{\"num_retries\": null}");
                assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
                JsonNode after = settings(restarted);
                assertThat(after.path("num_retries").path("value").asInt()).isEqualTo(2);
                assertThat(after.path("num_retries").path("source").asText()).isEqualTo("config file");
                assertThat(after.path("fallbacks").path("source").asText()).as("the other stored value stays").isEqualTo("database");
                assertThat(callsMade(restarted, failing)).as("the file's two retries again").isEqualTo(3);
            }
        }
    }
}
