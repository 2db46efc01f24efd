package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Fallbacks naming a model a wildcard group serves, or a {@code model_group_alias}: each is
 * found as a request's model is, its upstream is asked for the concrete name, and a fallback
 * object's own fields reach it.
 */
class WildcardFallbackTest {
    private MockUpstream primary;
    private MockUpstream wildcard;
    private MockUpstream aliased;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        primary = MockUpstream.start(MockOptions.defaults("primary", MockMode.FAIL));
        wildcard = MockUpstream.start(MockOptions.defaults("wildcard", MockMode.OK));
        aliased = MockUpstream.start(MockOptions.defaults("aliased", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: primary, litellm_params: {model: openai/p, api_base: %s}}
                  - {model_name: "openai/*", litellm_params: {model: "openai/*", api_base: %s}}
                  - {model_name: other, litellm_params: {model: openai/o, api_base: %s}}
                router_settings:
                  num_retries: 0
                  model_group_alias: {fast: other}
                  fallbacks: [{primary: [fast]}]
                """.formatted(primary.baseUrl(), wildcard.baseUrl(), aliased.baseUrl()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        primary.close();
        wildcard.close();
        aliased.close();
    }

    @Test
    void aFallbackObjectNamingAWildcardServedModelSendsItsOwnFieldsAndTheConcreteName() {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "messages": [{"role": "user", "content": "original"}],
                 "fallbacks": [{"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "for the wildcard"}]}]}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
        JsonNode received = wildcard.receivedBodies().getFirst();
        assertThat(received.path("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(received.at("/messages/0/content").asText()).isEqualTo("for the wildcard");
        assertThat(aliased.receivedBodies()).isEmpty();
    }

    @Test
    void aFallbackObjectNamingAnAliasReachesTheGroupItStandsForWithItsOwnFields() {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "messages": [{"role": "user", "content": "original"}],
                 "fallbacks": [{"model": "fast", "messages": [{"role": "user", "content": "for the alias"}]}]}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode received = aliased.receivedBodies().getFirst();
        assertThat(received.path("model").asText()).isEqualTo("o");
        assertThat(received.at("/messages/0/content").asText()).isEqualTo("for the alias");
    }

    @Test
    void aConfiguredFallbackToAnAliasIsAcceptedAndTaken() {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "messages": [{"role": "user", "content": "original"}]}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(aliased.receivedBodies().getFirst().at("/messages/0/content").asText()).isEqualTo("original");
    }
}
