package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.VirtualKey;
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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a key restricted to names a wildcard group or an alias serves is shown and may fall back
 * to: {@code /v1/models} and {@code /v1/models/{model}} judge the name as its call would be
 * judged, and so does the fallback access check.
 */
class WildcardVisibilityTest {
    private static final String MASTER = "sk-master-1234";

    private static TestGateway start(TestDatabase store, MockUpstream failing, MockUpstream ok) {
        return TestGateway.start("""
                model_list:
                  - {model_name: primary, litellm_params: {model: openai/p, api_base: %1$s}}
                  - {model_name: gpt-4o, litellm_params: {model: openai/gpt-4o, api_base: %2$s}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %2$s}}
                router_settings:
                  num_retries: 0
                  model_group_alias: {gpt-4: gpt-4o}
                general_settings:
                  master_key: %3$s
                  enforce_fallback_model_access: true
                  %4$s
                """.formatted(failing.baseUrl(), ok.baseUrl(), MASTER, store.generalSetting()));
    }

    private static void insertKey(TestDatabase store, String raw, List<String> models) {
        new KeyRepository(store.database()).insert(VirtualKey.builder(VirtualKey.hash(raw), VirtualKey.maskedName(raw), Instant.now())
                .models(models).build());
    }

    private static List<String> listed(TestGateway gateway, String key) throws IOException {
        return Json.parse(gateway.get("/v1/models", "Authorization", "Bearer " + key).body().getBytes())
                .path("data").findValuesAsText("id");
    }

    private static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes());
    }

    @Test
    void aKeyGrantedAWildcardServedNameSeesItAndFallsBackToIt() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.OK));
                TestGateway gateway = start(store, failing, ok)) {
            insertKey(store, "sk-mini-0001", List.of("primary", "openai/gpt-4o-mini"));

            assertThat(listed(gateway, "sk-mini-0001")).containsExactly("primary", "openai/gpt-4o-mini");
            HttpResponse<String> one = gateway.get("/v1/models/openai/gpt-4o-mini", "Authorization", "Bearer sk-mini-0001");
            assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
            assertThat(json(one.body()).path("id").asText()).isEqualTo("openai/gpt-4o-mini");
            HttpResponse<String> other = gateway.get("/v1/models/openai/gpt-4.1", "Authorization", "Bearer sk-mini-0001");
            assertThat(other.statusCode()).isEqualTo(404);
            assertThat(json(other.body()).path("error").path("code").asText()).isEqualTo("model_not_found");

            HttpResponse<String> fellBack = gateway.post("/v1/chat/completions", """
                    {"model": "primary", "messages": [{"role": "user", "content": "hello"}], "fallbacks": ["openai/gpt-4o-mini"]}""",
                    "Authorization", "Bearer sk-mini-0001");
            assertThat(fellBack.statusCode()).as(fellBack.body()).isEqualTo(200);
            assertThat(ok.receivedBodies().getLast().path("model").asText()).isEqualTo("gpt-4o-mini");

            HttpResponse<String> refused = gateway.post("/v1/chat/completions", """
                    {"model": "primary", "messages": [{"role": "user", "content": "hello"}], "fallbacks": ["openai/gpt-4.1"]}""",
                    "Authorization", "Bearer sk-mini-0001");
            assertThat(refused.statusCode()).as("a fallback the key may not call is skipped").isNotEqualTo(200);
        }
    }

    @Test
    void aCatchAllGroupListsAKeysConcreteModelsButNotItsSpecialNames() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: "*", litellm_params: {model: "openai/*", api_base: %1$s}}
                        general_settings:
                          master_key: %2$s
                          %3$s
                        """.formatted(ok.baseUrl(), MASTER, store.generalSetting()))) {
            insertKey(store, "sk-all-0001", List.of("all-proxy-models", "gpt-x"));

            assertThat(listed(gateway, "sk-all-0001")).containsExactly("*", "gpt-x");
        }
    }

    @Test
    void aKeyThatSeesAnAliasInTheListCanLookItUp() throws IOException {
        try (TestDatabase store = TestDatabases.h2();
                MockUpstream failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
                MockUpstream ok = MockUpstream.start(MockOptions.defaults("ok", MockMode.OK));
                TestGateway gateway = start(store, failing, ok)) {
            insertKey(store, "sk-four-0001", List.of("gpt-4o"));

            assertThat(listed(gateway, "sk-four-0001")).containsExactly("gpt-4o", "gpt-4");
            HttpResponse<String> alias = gateway.get("/v1/models/gpt-4", "Authorization", "Bearer sk-four-0001");
            assertThat(alias.statusCode()).as(alias.body()).isEqualTo(200);
            assertThat(json(alias.body()).path("id").asText()).isEqualTo("gpt-4");
            assertThat(gateway.get("/v1/models/openai/gpt-4o-mini", "Authorization", "Bearer sk-four-0001").statusCode())
                    .isEqualTo(404);
        }
    }
}
