package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.router.RouterEvents;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.MovableTicker;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A team's {@code model_aliases}, set through the team API of a running gateway and used by
 * the team's keys against a real upstream: the model the upstream is asked for, the order the
 * team's, the key's and the router's aliases apply in, the 403 for an alias of a model the team
 * may not call, and how soon a change reaches this replica and another.
 */
class TeamModelAliasesTest {
    private static final String MASTER = "sk-master-1234";

    private static String config(TestDatabase store, MockUpstream upstream) {
        return """
                model_list:
                  - {model_name: gpt-4o, litellm_params: {model: openai/gpt-4o, api_base: %1$s}}
                  - {model_name: gpt-mini, litellm_params: {model: openai/gpt-mini, api_base: %1$s}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %1$s}}
                router_settings:
                  num_retries: 0
                  model_group_alias: {gpt-4: gpt-4o, router-mini: gpt-mini}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting());
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        HttpResponse<String> answer = gateway.post(path, body, "Authorization", "Bearer " + MASTER);
        assertThat(answer.statusCode()).as(path + " " + answer.body()).isEqualTo(200);
        return answer;
    }

    private static String teamKey(TestGateway gateway, String body) throws IOException {
        return json(admin(gateway, "/key/generate", body).body()).path("key").asText();
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String model) {
        return gateway.post("/v1/chat/completions", Chat.body(model, "hello"), "Authorization", "Bearer " + key);
    }

    /** The model the upstream was last asked for: the deployment's model, without its provider. */
    private static String askedFor(MockUpstream upstream) {
        return upstream.receivedBodies().getLast().path("model").asText();
    }

    private static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes());
    }

    @StoreTest
    void theTeamsAliasesComeFirstThenTheKeysThenTheRouters(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            admin(gateway, "/team/new", """
                    {"team_id": "eng", "models": ["gpt-mini", "openai/*"],
                     "model_aliases": {"gpt-4": "gpt-mini", "house-model": "house", "big": "gpt-4o", "mini": "router-mini"}}""");
            String key = teamKey(gateway, """
                    {"team_id": "eng", "aliases": {"gpt-4": "gpt-4o", "house": "openai/gpt-4.1"}}""");

            // The team's gpt-4 wins over the key's and the router's (both gpt-4o, which the team may not call).
            HttpResponse<String> aliased = call(gateway, key, "gpt-4");
            assertThat(aliased.statusCode()).as(aliased.body()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-mini");
            assertThat(aliased.headers().firstValue("x-litellm-model-group")).hasValue("gpt-mini");
            // The key's aliases apply to what the team's gave, then the router's: one step each.
            assertThat(call(gateway, key, "house-model").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4.1");
            assertThat(call(gateway, key, "mini").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-mini");

            // An alias is no way round the team's models: neither "big" nor gpt-4o is granted.
            HttpResponse<String> denied = call(gateway, key, "big");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied.body())).isEqualTo(json("""
                    {"error": {"message": "team not allowed to access model. This team can only access models=['gpt-mini', 'openai/*']. Tried to access big",
                               "type": "team_model_access_denied", "param": "model", "code": "403"}}"""));
            assertThat(upstream.requests()).isEqualTo(3);

            // A key of no team, with no aliases of its own, gets the router's gpt-4.
            String loner = teamKey(gateway, "{}");
            assertThat(call(gateway, loner, "gpt-4").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4o");

            // /v1/models lists what the key may call, without the team's aliases, as it lists no key's.
            List<String> listed = json(gateway.get("/v1/models", "Authorization", "Bearer " + key).body())
                    .path("data").findValuesAsText("id");
            assertThat(listed).containsExactly("gpt-mini", "openai/*", "router-mini");
        }
    }

    @StoreTest
    void changingATeamsAliasesReachesItsKeysNextCallAndClearingThemHandsTheNameToTheKey(TestDatabase store)
            throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, upstream))) {
            admin(gateway, "/team/new", """
                    {"team_id": "eng", "models": ["gpt-mini", "openai/*"], "model_aliases": {"gpt-4": "gpt-mini"}}""");
            String key = teamKey(gateway, "{\"team_id\": \"eng\", \"aliases\": {\"gpt-4\": \"gpt-4o\"}}");
            assertThat(call(gateway, key, "gpt-4").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-mini");

            admin(gateway, "/team/update", "{\"team_id\": \"eng\", \"model_aliases\": {\"gpt-4\": \"openai/gpt-4.1-mini\"}}");
            assertThat(call(gateway, key, "gpt-4").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4.1-mini");

            // Without the team's alias, the key's gpt-4 -> gpt-4o applies, which the team may not call.
            admin(gateway, "/team/update", "{\"team_id\": \"eng\", \"model_aliases\": null}");
            HttpResponse<String> denied = call(gateway, key, "gpt-4");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied.body()).at("/error/message").asText()).isEqualTo(
                    "team not allowed to access model. This team can only access models=['gpt-mini', 'openai/*']. Tried to access gpt-4");
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }

    @Test
    void anotherReplicaServesATeamsNewAliasesOnceItReadsTheKeyAgain() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK))) {
            MovableTicker bTicker = new MovableTicker();
            try (TestGateway a = TestGateway.start(config(store, upstream));
                    TestGateway b = TestGateway.start(config(store, upstream), Map.of(), RouterEvents.NONE,
                            new TimeSource(Clock.systemUTC(), bTicker))) {
                admin(a, "/team/new", "{\"team_id\": \"eng\", \"model_aliases\": {\"gpt-4\": \"gpt-mini\"}}");
                String key = teamKey(a, "{\"team_id\": \"eng\"}");
                assertThat(call(b, key, "gpt-4").statusCode()).isEqualTo(200);
                assertThat(askedFor(upstream)).isEqualTo("gpt-mini");

                admin(a, "/team/update", "{\"team_id\": \"eng\", \"model_aliases\": {\"gpt-4\": \"openai/gpt-4.1\"}}");
                assertThat(call(a, key, "gpt-4").statusCode()).isEqualTo(200);
                assertThat(askedFor(upstream)).isEqualTo("gpt-4.1");

                // Within its key cache time (B's ticker runs with real time, and far less than the
                // lifetime has passed since B's read) B still serves what it read; past it, it reads
                // the team again. Moving B's ticker close to the lifetime here would not test "within":
                // the real time the calls above took would already put the entry past it.
                assertThat(call(b, key, "gpt-4").statusCode()).isEqualTo(200);
                assertThat(askedFor(upstream)).isEqualTo("gpt-mini");
                bTicker.advance(KeyDirectory.DEFAULT_TTL);
                Eventually.until("B serves the team's new alias", Duration.ofSeconds(10), () -> {
                    assertThat(call(b, key, "gpt-4").statusCode()).isEqualTo(200);
                    return askedFor(upstream).equals("gpt-4.1");
                });
            }
        }
    }
}
