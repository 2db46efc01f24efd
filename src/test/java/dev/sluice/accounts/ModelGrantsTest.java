package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.Team;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Chat;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What a key may call through wildcard patterns, access groups and group aliases, against a
 * real gateway, a real store and a real upstream: the calls it makes, the 403 it gets, and what
 * {@code /v1/models} lists for it.
 */
class ModelGrantsTest {
    private static final String MASTER = "sk-master-1234";

    private static TestGateway start(TestDatabase store, MockUpstream upstream) {
        return TestGateway.start("""
                model_list:
                  - {model_name: gpt-4o, litellm_params: {model: openai/gpt-4o, api_base: %1$s}, model_info: {access_groups: [beta-models]}}
                  - {model_name: gpt-mini, litellm_params: {model: openai/gpt-mini, api_base: %1$s}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %1$s}}
                router_settings:
                  num_retries: 0
                  model_group_alias: {gpt-4: gpt-4o, secret-4: {model: gpt-4o, hidden: true}}
                general_settings:
                  master_key: %2$s
                  %3$s
                """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()));
    }

    private static void insertKey(TestDatabase store, String raw, UnaryOperator<VirtualKey.Builder> settings) {
        VirtualKey.Builder builder = VirtualKey.builder(VirtualKey.hash(raw), VirtualKey.maskedName(raw), Instant.now());
        new KeyRepository(store.database()).insert(settings.apply(builder).build());
    }

    private static HttpResponse<String> call(TestGateway gateway, String key, String model) {
        return gateway.post("/v1/chat/completions", Chat.body(model, "hello"), "Authorization", "Bearer " + key);
    }

    private static List<String> listed(TestGateway gateway, String key, String query) throws IOException {
        return Json.parse(gateway.get("/v1/models" + query, "Authorization", "Bearer " + key).body().getBytes())
                .path("data").findValuesAsText("id");
    }

    private static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes());
    }

    private static String askedFor(MockUpstream upstream) {
        return upstream.receivedBodies().getLast().path("model").asText();
    }

    @StoreTest
    void aKeyGrantedAPatternCallsEveryNameItMatchesAndIsForbiddenTheRest(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            insertKey(store, "sk-wild-0001", key -> key.models(List.of("openai/*")));

            assertThat(call(gateway, "sk-wild-0001", "openai/gpt-4.1").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4.1");

            HttpResponse<String> denied = call(gateway, "sk-wild-0001", "gpt-mini");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied.body())).isEqualTo(json("""
                    {"error": {"message": "key not allowed to access model. This key can only access models=['openai/*']. Tried to access gpt-mini",
                               "type": "key_model_access_denied", "param": "model", "code": "403"}}"""));
            assertThat(upstream.requests()).isEqualTo(1);
            assertThat(listed(gateway, "sk-wild-0001", "")).containsExactly("openai/*");
        }
    }

    @StoreTest
    void aKeysOwnAliasesComeBeforeTheRoutersAndTheKeyMayCallWhatTheyStandFor(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            insertKey(store, "sk-aliased-0001", key -> key.models(List.of("gpt-mini", "openai/*"))
                    .aliases(java.util.Map.of("gpt-4", "gpt-mini", "house-model", "openai/gpt-4.1")));

            HttpResponse<String> aliased = call(gateway, "sk-aliased-0001", "gpt-4");
            assertThat(aliased.statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-mini"); // the key's alias, not the router's gpt-4 -> gpt-4o
            assertThat(aliased.headers().firstValue("x-litellm-model-group")).hasValue("gpt-mini");
            assertThat(call(gateway, "sk-aliased-0001", "house-model").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4.1");

            // Another key's alias means nothing to this one: gpt-4 is the router's alias of gpt-4o, which it may not call.
            insertKey(store, "sk-plain-0002", key -> key.models(List.of("gpt-mini")));
            HttpResponse<String> denied = call(gateway, "sk-plain-0002", "gpt-4");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied.body()).at("/error/message").asText()).isEqualTo(
                    "key not allowed to access model. This key can only access models=['gpt-mini']. Tried to access gpt-4");
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }

    @StoreTest
    void anAccessGroupGrantsItsGroupsAndTheirAliasesToKeysAndTeams(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            insertKey(store, "sk-beta-0001", key -> key.models(List.of("beta-models")));
            new TeamRepository(store.database()).insert(Team.builder("beta-team", Instant.now())
                    .models(List.of("beta-models")).build());
            insertKey(store, "sk-team-0002", key -> key.teamId("beta-team"));

            assertThat(call(gateway, "sk-beta-0001", "gpt-4o").statusCode()).isEqualTo(200);
            HttpResponse<String> aliased = call(gateway, "sk-beta-0001", "gpt-4");
            assertThat(aliased.statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4o");
            assertThat(aliased.headers().firstValue("x-litellm-model-group")).hasValue("gpt-4o");
            HttpResponse<String> denied = call(gateway, "sk-beta-0001", "gpt-mini");
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied.body()).at("/error/message").asText()).isEqualTo(
                    "key not allowed to access model. This key can only access models=['beta-models']. Tried to access gpt-mini");

            assertThat(call(gateway, "sk-team-0002", "gpt-4o").statusCode()).isEqualTo(200);
            HttpResponse<String> teamDenied = call(gateway, "sk-team-0002", "openai/gpt-4.1");
            assertThat(teamDenied.statusCode()).isEqualTo(403);
            assertThat(json(teamDenied.body())).isEqualTo(json("""
                    {"error": {"message": "team not allowed to access model. This team can only access models=['beta-models']. Tried to access openai/gpt-4.1",
                               "type": "team_model_access_denied", "param": "model", "code": "403"}}"""));

            assertThat(listed(gateway, "sk-beta-0001", "")).containsExactly("gpt-4o", "gpt-4");
            assertThat(listed(gateway, "sk-beta-0001", "?only_model_access_groups=True")).containsExactly("beta-models");
            assertThat(listed(gateway, "sk-beta-0001", "?include_model_access_groups=true"))
                    .containsExactly("gpt-4o", "gpt-4", "beta-models");
            assertThat(listed(gateway, "sk-team-0002", "?only_model_access_groups=True")).containsExactly("beta-models");
            assertThat(upstream.requests()).isEqualTo(3);
        }
    }

    @StoreTest
    void aHiddenAliasIsServedButNotListed(TestDatabase store) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = start(store, upstream)) {
            assertThat(listed(gateway, MASTER, "")).containsExactly("gpt-4o", "gpt-mini", "openai/*", "gpt-4");
            assertThat(listed(gateway, MASTER, "?only_model_access_groups=True")).containsExactly("beta-models");

            assertThat(call(gateway, MASTER, "secret-4").statusCode()).isEqualTo(200);
            assertThat(askedFor(upstream)).isEqualTo("gpt-4o");

            JsonNode info = json(gateway.get("/model/info", "Authorization", "Bearer " + MASTER).body());
            assertThat(info.at("/data/0/model_info/access_groups")).isEqualTo(json("[\"beta-models\"]"));
        }
    }
}
