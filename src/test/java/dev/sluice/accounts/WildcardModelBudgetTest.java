package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A key's per-model budgets and rate limits, written for the name a request asks for, hold when
 * a wildcard group or a group alias serves that name, and still hold when written for an
 * explicit group: against a real gateway, store and upstream.
 */
class WildcardModelBudgetTest {
    private static final String MASTER = "sk-master-1234";
    private static final String TINY = "{\"budget_limit\": 0.000001, \"time_period\": \"1d\"}";

    private static TestGateway start(TestDatabase store, MockUpstream upstream) {
        return TestGateway.start("""
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s, input_cost_per_token: 0.001, output_cost_per_token: 0.001}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %1$s, input_cost_per_token: 0.001, output_cost_per_token: 0.001}}
                router_settings:
                  num_retries: 0
                  model_group_alias: {gpt-4: gpt-a}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()));
    }

    private static String key(TestGateway gateway, String settings) throws IOException {
        HttpResponse<String> generated = gateway.post("/key/generate", settings, "Authorization", "Bearer " + MASTER);
        assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
        return Json.parse(generated.body().getBytes()).path("key").asText();
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String model) {
        return gateway.post("/v1/chat/completions", Chat.body(model, "hello"), "Authorization", "Bearer " + key);
    }

    private static void spentAfterOneCall(TestGateway gateway, String key, String model) throws IOException {
        assertThat(call(gateway, key, model).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = call(gateway, key, model);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        var error = Json.parse(refused.body().getBytes()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("budget_exceeded");
        assertThat(error.path("code").asText()).isEqualTo("400");
    }

    @Test
    void aBudgetForAWildcardServedNameStopsThatName() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            String key = key(gateway, "{\"model_max_budget\": {\"openai/gpt-4o-mini\": " + TINY + "}}");

            spentAfterOneCall(gateway, key, "openai/gpt-4o-mini");
            assertThat(call(gateway, key, "openai/gpt-4.1").statusCode()).as("another name the pattern serves has no budget")
                    .isEqualTo(200);
        }
    }

    @Test
    void aBudgetForThePatternStillCoversEveryNameItServes() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            String key = key(gateway, "{\"model_max_budget\": {\"openai/*\": " + TINY + "}}");

            spentAfterOneCall(gateway, key, "openai/gpt-4o-mini");
            assertThat(call(gateway, key, "openai/gpt-4.1").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void budgetsForAnExplicitGroupAndForAnAliasHold() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            spentAfterOneCall(gateway, key(gateway, "{\"model_max_budget\": {\"gpt-a\": " + TINY + "}}"), "gpt-a");
            spentAfterOneCall(gateway, key(gateway, "{\"model_max_budget\": {\"gpt-4\": " + TINY + "}}"), "gpt-4");
        }
    }

    @Test
    void aRateLimitForAWildcardServedNameLimitsThatName() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            String key = key(gateway, "{\"model_rpm_limit\": {\"openai/gpt-4o-mini\": 1}}");

            assertThat(call(gateway, key, "openai/gpt-4o-mini").statusCode()).isEqualTo(200);
            HttpResponse<String> limited = call(gateway, key, "openai/gpt-4o-mini");
            assertThat(limited.statusCode()).as(limited.body()).isEqualTo(429);
            assertThat(Json.parse(limited.body().getBytes()).path("error").path("code").asText()).isEqualTo("rate_limit_exceeded");
            assertThat(call(gateway, key, "openai/gpt-4.1").statusCode()).isEqualTo(200);
        }
    }
}
