package dev.sluice.call.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A call the cache answers costs nothing and leaves a spend row marked as a hit, on either store. */
class CacheHitSpendTest {
    private static final String MASTER = "sk-1234";
    private static final String CHAT = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @StoreTest
    void aHitIsLoggedAsAHitThatCostNothing(TestDatabase store) throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.001}}
                        litellm_settings: {cache: true, cache_params: {type: local}}
                        general_settings:
                          master_key: %s
                          %s
                        """.formatted(upstream.baseUrl(), MASTER, store.generalSetting()))) {
            HttpResponse<String> generated = gateway.post("/key/generate", "{}", "Authorization", "Bearer " + MASTER);
            String key = Json.parse(generated.body().getBytes()).path("key").asText();

            HttpResponse<String> miss = gateway.post("/v1/chat/completions", CHAT, "Authorization", "Bearer " + key);
            HttpResponse<String> hit = gateway.post("/v1/chat/completions", CHAT, "Authorization", "Bearer " + key);

            String cacheKey = hit.headers().firstValue("x-litellm-cache-key").orElseThrow();
            SpendRow missRow = logged(store, miss);
            SpendRow hitRow = logged(store, hit);
            assertThat(missRow.cacheHit()).isFalse();
            assertThat(missRow.cacheKey()).hasValue(cacheKey);
            assertThat(missRow.cost()).isPositive();
            assertThat(hitRow.cacheHit()).isTrue();
            assertThat(hitRow.cacheKey()).hasValue(cacheKey);
            assertThat(hitRow.cost()).isEqualByComparingTo(BigDecimal.ZERO);
            assertThat(hitRow.deploymentId()).isEmpty();
            assertThat(hitRow.modelGroup()).isEqualTo("g");
            assertThat(hitRow.accounts().keyHash()).isEqualTo(missRow.accounts().keyHash());
            assertThat(hitRow.tokens().promptTokens()).as("as the stored answer reported").isEqualTo(missRow.tokens().promptTokens());
            assertThat(hitRow.status()).isEqualTo(200);
        }
    }

    private static SpendRow logged(TestDatabase store, HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        String callId = answer.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository log = new SpendRepository(store.database());
        Eventually.until("the call's spend row is logged", Duration.ofSeconds(10), () -> log.find(callId).isPresent());
        return log.find(callId).orElseThrow();
    }
}
