package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wildcard model groups against a real gateway and real upstreams: which deployment a name
 * goes to, and the model its upstream is asked for, read from what the upstream received.
 */
class WildcardRoutingTest {
    private static MockUpstream explicit;
    private static MockUpstream openai;
    private static MockUpstream prefixed;
    private static MockUpstream longer;
    private static MockUpstream anything;
    private static MockUpstream failing;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        explicit = MockUpstream.start(MockOptions.defaults("explicit", MockMode.OK));
        openai = MockUpstream.start(MockOptions.defaults("openai", MockMode.OK));
        prefixed = MockUpstream.start(MockOptions.defaults("prefixed", MockMode.OK));
        longer = MockUpstream.start(MockOptions.defaults("longer", MockMode.OK));
        anything = MockUpstream.start(MockOptions.defaults("anything", MockMode.OK));
        failing = MockUpstream.start(MockOptions.defaults("failing", MockMode.FAIL));
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: "*", litellm_params: {model: "*", api_base: %5$s}, model_info: {id: any-1}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %2$s}, model_info: {id: openai-wild}}
                  - {model_name: openai/gpt-4o, litellm_params: {model: openai/pinned-4o, api_base: %1$s}, model_info: {id: pinned}}
                  - {model_name: "my-prefix/*", litellm_params: {model: "openai/*", api_base: %3$s}, model_info: {id: prefix-1}}
                  - {model_name: "my-prefix/special/*", litellm_params: {model: "openai/special-*", api_base: %4$s}}
                  - {model_name: failing, litellm_params: {model: openai/f, api_base: %6$s}}
                router_settings:
                  num_retries: 0
                  fallbacks: [{failing: [openai/backup-model]}]
                """.formatted(explicit.baseUrl(), openai.baseUrl(), prefixed.baseUrl(), longer.baseUrl(), anything.baseUrl(),
                failing.baseUrl()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        for (MockUpstream upstream : new MockUpstream[] {explicit, openai, prefixed, longer, anything, failing}) {
            upstream.close();
        }
    }

    @BeforeEach
    void forget() {
        for (MockUpstream upstream : new MockUpstream[] {explicit, openai, prefixed, longer, anything, failing}) {
            upstream.reset();
        }
    }

    private static HttpResponse<String> call(String model) {
        return gateway.post("/v1/chat/completions", Chat.body(model, "hello"));
    }

    private static String askedFor(MockUpstream upstream) {
        assertThat(upstream.receivedBodies()).hasSize(1);
        return upstream.receivedBodies().getFirst().path("model").asText();
    }

    @Test
    void aProviderWildcardAsksItsUpstreamForTheNameAfterThePrefix() {
        HttpResponse<String> answer = call("openai/gpt-4.1-mini");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(askedFor(openai)).isEqualTo("gpt-4.1-mini");
        // Counted under the pattern, so metrics and spend stay bounded whatever names callers try.
        assertThat(answer.headers().firstValue("x-litellm-model-group")).hasValue("openai/*");
        assertThat(answer.headers().firstValue("x-litellm-model-id")).hasValue("openai-wild");
    }

    @Test
    void aGroupOfItsOwnWinsOverEveryWildcard() {
        assertThat(call("openai/gpt-4o").statusCode()).isEqualTo(200);

        assertThat(askedFor(explicit)).isEqualTo("pinned-4o");
        assertThat(openai.receivedBodies()).isEmpty();
        assertThat(anything.receivedBodies()).isEmpty();
    }

    @Test
    void theLongestMatchingPatternWins() {
        assertThat(call("my-prefix/special/fast").statusCode()).isEqualTo(200);
        assertThat(askedFor(longer)).isEqualTo("special-fast");

        assertThat(call("my-prefix/gpt-4o").statusCode()).isEqualTo(200);
        assertThat(askedFor(prefixed)).isEqualTo("gpt-4o");
        assertThat(anything.receivedBodies()).isEmpty();
    }

    @Test
    void theCatchAllServesEveryOtherNameAsWritten() {
        HttpResponse<String> answer = call("some-model");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(askedFor(anything)).isEqualTo("some-model");
        assertThat(answer.headers().firstValue("x-litellm-model-group")).hasValue("*");
    }

    @Test
    void aCatchAllCalledForAProviderSluiceDoesNotServeIsRefusedBeforeAnyCall() throws IOException {
        HttpResponse<String> answer = call("no-such-vendor/model-x");

        assertThat(answer.statusCode()).isEqualTo(400);
        JsonNode error = Json.parse(answer.body().getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("provider_not_supported");
        assertThat(error.path("param").asText()).isEqualTo("model");
        assertThat(error.path("message").asText()).startsWith("Sluice: model 'no-such-vendor/model-x' matches the wildcard "
                + "model group '*', whose deployment would call provider 'no-such-vendor', which Sluice does not serve.");
        assertThat(anything.receivedBodies()).isEmpty();
    }

    @Test
    void tokensAreCountedForANameAWildcardServesAndRefusedForAnUnservedProvider() throws IOException {
        String ask = "{\"model\": \"%s\", \"messages\": [{\"role\": \"user\", \"content\": \"hello\"}]}";

        HttpResponse<String> counted = gateway.post("/v1/messages/count_tokens", ask.formatted("openai/gpt-4.1-mini"));
        assertThat(counted.statusCode()).isEqualTo(200);
        assertThat(Json.parse(counted.body().getBytes()).path("input_tokens").asInt()).isPositive();

        HttpResponse<String> refused = gateway.post("/v1/messages/count_tokens", ask.formatted("no-such-vendor/model-x"));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(Json.parse(refused.body().getBytes()).at("/error/message").asText())
                .startsWith("Sluice: model 'no-such-vendor/model-x' matches the wildcard model group '*'");
    }

    @Test
    void aFallbackMayNameANameAWildcardGroupServes() {
        HttpResponse<String> answer = call("failing");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(failing.requests()).isEqualTo(1);
        assertThat(askedFor(openai)).isEqualTo("backup-model");
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
    }

    @Test
    void healthLeavesWildcardDeploymentsUnprobed() throws IOException {
        JsonNode health = Json.parse(gateway.get("/health").body().getBytes());

        assertThat(health.path("healthy_endpoints").findValuesAsText("model_id")).containsExactly("pinned");
        assertThat(health.path("unhealthy_endpoints").findValuesAsText("model_name")).containsExactly("failing");
        assertThat(openai.requests() + anything.requests() + prefixed.requests() + longer.requests()).isZero();
    }

    @Test
    void theModelListShowsWildcardGroupsByTheirPattern() throws IOException {
        JsonNode models = Json.parse(gateway.get("/v1/models").body().getBytes());

        assertThat(models.path("data").findValuesAsText("id"))
                .containsExactly("*", "openai/*", "openai/gpt-4o", "my-prefix/*", "my-prefix/special/*", "failing");
    }
}
