package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A guardrail's refusal is a 400 that never reaches a sibling or a fallback, on the first attempt or a retry. */
class GuardrailRoutingTest {

    private static final String GUARDRAIL = """
            guardrails:
              - guardrail_name: no-secrets
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: pre_call
                  blocked_words: [password]
            """;

    @Test
    void guardrailRefusalOnARetryNeverReachesTheNextDeployment() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream unguarded = MockUpstream.start(MockOptions.defaults("unguarded", MockMode.FAIL));
                MockUpstream guarded = MockUpstream.start(MockOptions.defaults("guarded", MockMode.OK));
                MockUpstream fallback = MockUpstream.start(MockOptions.defaults("fallback", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: unguarded}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0, guardrails: [no-secrets]}, model_info: {id: guarded}}
                          - {model_name: other, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: other}}
                        router_settings: {num_retries: 3, fallbacks: [{g: [other]}]}
                        %s""".formatted(unguarded.baseUrl(), guarded.baseUrl(), fallback.baseUrl(), GUARDRAIL), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "my password is hunter2"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("guardrail_refused");
            assertThat(SiblingFailoverTest.error(response).path("message").asText())
                    .contains("no-secrets", "password")
                    .doesNotContain("hunter2");
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("guarded");
            assertThat(unguarded.requests()).isEqualTo(1);
            assertThat(guarded.requests()).as("refused before the call").isZero();
            assertThat(fallback.requests()).as("never sent to a fallback").isZero();
            assertThat(events.brief()).containsExactly(
                    "attempt unguarded", "failed unguarded server", "failover unguarded",
                    "attempt guarded", "failed guarded guardrail");
        }
    }

    @Test
    void defaultOnGuardrailRefusesOnTheFirstAttempt() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        guardrails:
                          - guardrail_name: no-secrets
                            litellm_params: {guardrail: litellm_content_filter, mode: pre_call, default_on: true, blocked_words: [password]}
                        """.formatted(upstream.baseUrl()))) {
            HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("g", "the Password is x"));
            HttpResponse<String> allowed = gateway.post("/v1/chat/completions", Chat.body("g", "passwords in general"));

            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(upstream.requests()).isEqualTo(1);
        }
    }

    @Test
    void postCallGuardrailRefusesAnAnswerAndTheStreamIsHeldUntilChecked() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        guardrails:
                          - guardrail_name: no-echo
                            litellm_params: {guardrail: litellm_content_filter, mode: post_call, default_on: true, blocked_words: [banana]}
                        """.formatted(upstream.baseUrl()))) {
            // The mock echoes the prompt in its answer, so the answer holds the word.
            HttpResponse<String> json = gateway.post("/v1/chat/completions", Chat.body("g", "banana"));
            HttpResponse<String> stream = gateway.post("/v1/chat/completions", Chat.stream("g", "banana"));
            HttpResponse<String> clean = gateway.post("/v1/chat/completions", Chat.stream("g", "apple"));

            assertThat(json.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(json).path("code").asText()).isEqualTo("guardrail_refused");
            assertThat(stream.statusCode()).isEqualTo(400);
            assertThat(clean.statusCode()).isEqualTo(200);
            assertThat(clean.body()).contains("apple").contains("data: [DONE]");
        }
    }

    @Test
    void callerNamedGuardrailRunsAndAnUnknownNameIsA400() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        %s""".formatted(upstream.baseUrl(), GUARDRAIL))) {
            HttpResponse<String> refused = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"guardrails\":[\"no-secrets\"],\"messages\":[{\"role\":\"user\",\"content\":\"password\"}]}");
            HttpResponse<String> unknown = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"guardrails\":[\"nope\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            HttpResponse<String> allowed = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"guardrails\":[\"no-secrets\"],\"timeout\":30,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(refused).path("code").asText()).isEqualTo("guardrail_refused");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(unknown).path("message").asText()).contains("'nope'", "no-secrets");
            assertThat(allowed.statusCode()).isEqualTo(200);
            assertThat(upstream.receivedBodies()).hasSize(1);
            assertThat(upstream.receivedBodies().getFirst().has("guardrails")).as("Sluice's own field is not forwarded").isFalse();
            assertThat(upstream.receivedBodies().getFirst().has("timeout")).isFalse();
        }
    }
}
