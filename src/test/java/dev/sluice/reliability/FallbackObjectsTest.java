package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request's {@code fallbacks} written as objects, {@code {"model": group, ...}}: the group
 * is fallen back to with the object's other fields laid over the request, as LiteLLM does.
 */
class FallbackObjectsTest {
    private MockUpstream primary;
    private MockUpstream second;
    private MockUpstream third;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        primary = MockUpstream.start(MockOptions.defaults("primary", MockMode.FAIL));
        second = MockUpstream.start(MockOptions.defaults("second", MockMode.FAIL));
        third = MockUpstream.start(MockOptions.defaults("third", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: primary, litellm_params: {model: openai/p, api_base: %s}, model_info: {id: p1}}
                  - {model_name: second, litellm_params: {model: openai/s, api_base: %s}, model_info: {id: s1}}
                  - {model_name: third, litellm_params: {model: openai/t, api_base: %s}, model_info: {id: t1}}
                router_settings: {num_retries: 0}
                """.formatted(primary.baseUrl(), second.baseUrl(), third.baseUrl()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        primary.close();
        second.close();
        third.close();
    }

    @Test
    void eachFallbackObjectsFieldsGoToItsOwnGroupOnly() throws IOException {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "temperature": 0.1, "messages": [{"role": "user", "content": "original"}],
                 "fallbacks": [{"model": "second", "messages": [{"role": "user", "content": "for second"}], "temperature": 0.9},
                               "third"]}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("x-litellm-model-group")).hasValue("third");
        assertThat(answer.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("2");
        assertThat(primary.receivedBodies().getFirst().at("/messages/0/content").asText()).isEqualTo("original");
        JsonNode toSecond = second.receivedBodies().getFirst();
        assertThat(toSecond.at("/messages/0/content").asText()).isEqualTo("for second");
        assertThat(toSecond.path("temperature").asDouble()).isEqualTo(0.9);
        assertThat(toSecond.path("model").asText()).isEqualTo("s");
        assertThat(toSecond.has("fallbacks")).isFalse();
        // A plain string fallback after an object gets the request as the caller sent it.
        JsonNode toThird = third.receivedBodies().getFirst();
        assertThat(toThird.at("/messages/0/content").asText()).isEqualTo("original");
        assertThat(toThird.path("temperature").asDouble()).isEqualTo(0.1);
    }

    @Test
    void anObjectInRouterSettingsOverrideWorksTooAndAModelOnlyObjectChangesNothing() {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "messages": [{"role": "user", "content": "original"}],
                 "router_settings_override": {"fallbacks": [{"model": "third", "messages": [{"role": "user", "content": "changed"}]}]}}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(third.receivedBodies().getFirst().at("/messages/0/content").asText()).isEqualTo("changed");

        HttpResponse<String> plain = gateway.post("/v1/chat/completions", """
                {"model": "primary", "messages": [{"role": "user", "content": "original"}], "fallbacks": [{"model": "third"}]}""");
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(third.receivedBodies().get(1).at("/messages/0/content").asText()).isEqualTo("original");
    }

    @Test
    void aStreamingFallbackObjectOnAStreamIsTaken() {
        HttpResponse<String> answer = gateway.post("/v1/chat/completions", """
                {"model": "primary", "stream": true, "messages": [{"role": "user", "content": "original"}],
                 "fallbacks": [{"model": "third", "stream": true, "messages": [{"role": "user", "content": "changed"}]}]}""");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).contains("data: [DONE]");
        assertThat(third.receivedBodies().getFirst().at("/messages/0/content").asText()).isEqualTo("changed");
    }

    @Test
    void badFallbackObjectsAre400sNamingTheItem() throws IOException {
        assertRefused("""
                {"model": "primary", "messages": [{"role": "user", "content": "hi"}], "fallbacks": [{"messages": [{"role": "user", "content": "x"}]}]}""",
                "fallbacks[0]");
        assertRefused("""
                {"model": "primary", "messages": [{"role": "user", "content": "hi"}], "fallbacks": ["third", {"model": "nope", "messages": []}]}""",
                "fallbacks[1]");
        assertRefused("""
                {"model": "primary", "messages": [{"role": "user", "content": "hi"}], "fallbacks": [{"model": "third", "stream": true}]}""",
                "fallbacks[0].stream");
        assertRefused("""
                {"model": "primary", "messages": [{"role": "user", "content": "hi"}], "fallbacks": [{"model": "third", "n": 1}, {"model": "third", "n": 2}]}""",
                "fallbacks[1]");
        assertRefused("""
                {"model": "primary", "messages": [{"role": "user", "content": "hi"}], "fallbacks": [{"model": 7, "n": 1}]}""",
                "fallbacks[0]");
        assertThat(primary.requests() + second.requests() + third.requests()).isZero();
    }

    private void assertRefused(String body, String param) throws IOException {
        HttpResponse<String> refused = gateway.post("/v1/chat/completions", body);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        JsonNode error = Json.parse(refused.body().getBytes()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).contains(param);
        assertThat(error.path("param").asText()).startsWith(param);
    }
}
