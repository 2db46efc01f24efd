package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The key and team API as a LiteLLM user drives it, against the running gateway: what it writes takes effect at once. */
class KeyApiGatewayTest {
    private static final String MASTER = "sk-1234";

    private static String config(TestDatabase store, MockUpstream upstream) {
        return """
                model_list:
                  - {model_name: gpt-a, litellm_params: {model: openai/a, api_base: %1$s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}}
                  - {model_name: gpt-b, litellm_params: {model: openai/b, api_base: %1$s}}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hello"), "Authorization", "Bearer " + key);
    }

    @StoreTest
    void aGeneratedKeyWorksAtOnceAndItsChangesTakeEffectAtOnce(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            HttpResponse<String> generated = admin(gateway, "/key/generate", "{\"models\": [\"gpt-a\"], \"key_alias\": \"bot\"}");
            assertThat(generated.statusCode()).as(generated.body()).isEqualTo(200);
            String key = json(generated).path("key").asText();
            assertThat(key).startsWith("sk-");

            HttpResponse<String> answered = call(gateway, key, "gpt-a");
            assertThat(answered.statusCode()).isEqualTo(200);
            double cost = Double.parseDouble(answered.headers().firstValue("x-litellm-response-cost").orElseThrow());
            assertThat(call(gateway, key, "gpt-b").statusCode()).isEqualTo(403);

            // The spend reaches the key's stored record behind the call.
            Eventually.until("the key's spend is stored", Duration.ofSeconds(10), () -> {
                JsonNode info = infoOf(gateway, key);
                return info.path("info").path("spend").asDouble() == cost;
            });

            // A virtual key reads its own info, not the key API.
            assertThat(gateway.get("/key/info", "Authorization", "Bearer " + key).statusCode()).isEqualTo(200);
            assertThat(gateway.post("/key/generate", "{}", "Authorization", "Bearer " + key).statusCode()).isEqualTo(403);

            // Widening its models, then blocking it, take effect on the very next call.
            assertThat(admin(gateway, "/key/update", "{\"key\": \"" + key + "\", \"models\": [\"gpt-a\", \"gpt-b\"]}").statusCode())
                    .isEqualTo(200);
            assertThat(call(gateway, key, "gpt-b").statusCode()).isEqualTo(200);
            assertThat(admin(gateway, "/key/block", "{\"key\": \"" + key + "\"}").statusCode()).isEqualTo(200);
            assertThat(call(gateway, key, "gpt-a").statusCode()).isEqualTo(401);
            assertThat(admin(gateway, "/key/unblock", "{\"key\": \"" + key + "\"}").statusCode()).isEqualTo(200);
            assertThat(call(gateway, key, "gpt-a").statusCode()).isEqualTo(200);

            assertThat(admin(gateway, "/key/delete", "{\"keys\": [\"" + key + "\"]}").statusCode()).isEqualTo(200);
            assertThat(call(gateway, key, "gpt-a").statusCode()).isEqualTo(401);
        }
    }

    @StoreTest
    void aTeamsModelsAndBudgetGovernItsKeys(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            HttpResponse<String> team = admin(gateway, "/team/new", "{\"team_alias\": \"eng\", \"models\": [\"gpt-a\"], \"max_budget\": 0.000001}");
            assertThat(team.statusCode()).as(team.body()).isEqualTo(200);
            String teamId = json(team).path("team_id").asText();
            String key = json(admin(gateway, "/key/generate", "{\"team_id\": \"" + teamId + "\"}")).path("key").asText();

            assertThat(call(gateway, key, "gpt-b").statusCode()).isEqualTo(403);
            assertThat(call(gateway, key, "gpt-a").statusCode()).isEqualTo(200);
            HttpResponse<String> overBudget = call(gateway, key, "gpt-a");
            assertThat(overBudget.statusCode()).isEqualTo(400);
            assertThat(json(overBudget).path("error").path("message").asText()).startsWith("Budget has been exceeded! Team=" + teamId);

            // Raising the team's budget lets its keys through again at once.
            assertThat(admin(gateway, "/team/update", "{\"team_id\": \"" + teamId + "\", \"max_budget\": 100}").statusCode()).isEqualTo(200);
            assertThat(call(gateway, key, "gpt-a").statusCode()).isEqualTo(200);
        }
    }

    private static JsonNode infoOf(TestGateway gateway, String key) {
        try {
            return json(gateway.get("/key/info?key=" + key, "Authorization", "Bearer " + MASTER));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
