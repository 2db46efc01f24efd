package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Routing rules of docs/reliability.md that no other test pins down: each test here fails if
 * its rule is broken in AttemptLoop, NumRetries or the header code, and passes otherwise.
 * Weight 0 makes a deployment a backup, so which deployment is tried first is deterministic.
 */
class RoutingRulesTest {

    private static final String GUARDRAIL = """
            guardrails:
              - guardrail_name: no-secrets
                litellm_params:
                  guardrail: litellm_content_filter
                  mode: pre_call
                  blocked_words: [password]
            """;

    @Test
    void aDeploymentThatRefusedIsNotTheOneRepeatedWhenItsSiblingFails() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (ScriptedUpstream rejecting = ScriptedUpstream.start("a", Reply.status(400), Reply.status(400), Reply.status(400));
                ScriptedUpstream flaky = ScriptedUpstream.start("b", Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        router_settings: {num_retries: 3}
                        """.formatted(rejecting.baseUrl(), flaky.baseUrl()), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(rejecting.calls()).as("a refused, so it is never called again for this request").isEqualTo(1);
            assertThat(flaky.calls()).isEqualTo(2);
            assertThat(events.brief()).containsExactly(
                    "attempt a", "failed a rejected", "failover a",
                    "attempt b", "failed b server", "retry b server",
                    "attempt b");
        }
    }

    @Test
    void siblingFailoversCountAgainstTheRetryBudget() throws IOException {
        try (ScriptedUpstream a = ScriptedUpstream.start("a", Reply.status(500), Reply.status(500));
                ScriptedUpstream b = ScriptedUpstream.start("b", Reply.status(500), Reply.status(500));
                ScriptedUpstream c = ScriptedUpstream.start("c", Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: c}}
                        router_settings: {num_retries: 1}
                        """.formatted(a.baseUrl(), b.baseUrl(), c.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(a.calls() + b.calls() + c.calls()).as("one call and one failover, the budget of 1 is spent").isEqualTo(2);
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("1");
        }
    }

    @Test
    void callersGroupRetryPolicyBeatsTheConfigs() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {model_group_retry_policy: {g: {InternalServerErrorRetries: 0}}}
                        """.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"g","router_settings_override":{"model_group_retry_policy":{"g":{"InternalServerErrorRetries":1}}},
                     "messages":[{"role":"user","content":"hi"}]}""");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(2);
        }
    }

    @Test
    void callersCountBeatsTheRetryPolicyForTheClass() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings:
                          retry_policy: {InternalServerErrorRetries: 0}
                          model_group_retry_policy: {g: {InternalServerErrorRetries: 0}}
                        """.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-num-retries", "1");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(2);
        }
    }

    @Test
    void aBenchedSiblingGetsNoFailover() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (ScriptedUpstream limited = ScriptedUpstream.start("a", new Reply(429, "{\"error\":{\"message\":\"busy\"}}", "30"));
                ScriptedUpstream flaky = ScriptedUpstream.start("b", Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        router_settings: {num_retries: 1}
                        """.formatted(limited.baseUrl(), flaky.baseUrl()), Map.of(), events)) {
            gateway.post("/v1/chat/completions", Chat.body("g", "hi")); // a: 429, benched for 30 s; b: 500
            assertThat(events.drainBrief()).contains("bench a rate_limited");

            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(limited.calls()).as("benched: no traffic, not even a failover").isEqualTo(1);
            assertThat(events.brief()).containsExactly("attempt b", "failed b server", "retry b server", "attempt b");
        }
    }

    @Test
    void guardrailRefusalOnTheFirstAttemptIsNotSentToAnUntriedSiblingOrAFallback() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (MockUpstream guarded = MockUpstream.start(MockOptions.defaults("guarded", MockMode.OK));
                MockUpstream unguarded = MockUpstream.start(MockOptions.defaults("unguarded", MockMode.OK));
                MockUpstream fallback = MockUpstream.start(MockOptions.defaults("fallback", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1, guardrails: [no-secrets]}, model_info: {id: guarded}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: unguarded}}
                          - {model_name: other, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: other}}
                        router_settings: {num_retries: 3, fallbacks: [{g: [other]}]}
                        %s""".formatted(guarded.baseUrl(), unguarded.baseUrl(), fallback.baseUrl(), GUARDRAIL), Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "my password is hunter2"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("guardrail_refused");
            assertThat(List.of(guarded.requests(), unguarded.requests(), fallback.requests())).containsExactly(0, 0, 0);
            assertThat(events.brief()).containsExactly("attempt guarded", "failed guarded guardrail");
        }
    }

    @Test
    void guardrailRefusalInAFallbackGroupEndsTheRequest() throws IOException {
        try (ScriptedUpstream primary = ScriptedUpstream.start("primary", Reply.status(500));
                MockUpstream guardedFallback = MockUpstream.start(MockOptions.defaults("guarded", MockMode.OK));
                MockUpstream lastFallback = MockUpstream.start(MockOptions.defaults("last", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: f1, litellm_params: {model: openai/b, api_base: %s, guardrails: [no-secrets]}, model_info: {id: b}}
                          - {model_name: f2, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: c}}
                        router_settings: {num_retries: 0, fallbacks: [{g: [f1, f2]}]}
                        %s""".formatted(primary.baseUrl(), guardedFallback.baseUrl(), lastFallback.baseUrl(), GUARDRAIL))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "my password is hunter2"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("guardrail_refused");
            assertThat(response.headers().firstValue("x-litellm-model-group")).hasValue("f1");
            assertThat(primary.calls()).isEqualTo(1);
            assertThat(guardedFallback.requests()).as("refused before the call").isZero();
            assertThat(lastFallback.requests()).as("the refusal ends the request").isZero();
        }
    }

    @Test
    void answerServedByAFallbackCountsOnlyThatGroupsRetries() throws IOException {
        try (ScriptedUpstream primary = ScriptedUpstream.start("primary",
                Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: f, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: b}}
                        router_settings: {num_retries: 1, fallbacks: [{g: [f]}]}
                        """.formatted(primary.baseUrl(), backup.baseUrl()))) {
            HttpResponse<String> streamed = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));
            HttpResponse<String> whole = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(primary.calls()).as("two attempts in g for each request").isEqualTo(4);
            for (HttpResponse<String> response : List.of(streamed, whole)) {
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("x-litellm-model-group")).hasValue("f");
                assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
                assertThat(response.headers().firstValue("x-litellm-attempted-retries"))
                        .as("g's retry is not f's").hasValue("0");
            }
            assertThat(streamed.body()).endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void retryAfterLongerThanTheLongestWaitIsNotWaitedFor() throws IOException {
        // TestGateway honours a Retry-After of at most 5 s (production: 60 s); 10 s is over it.
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", new Reply(429, "{\"error\":{\"message\":\"slow down\"}}", "10"));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                        router_settings: {num_retries: 1}
                        """.formatted(upstream.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("retry-after")).hasValue("10");
            assertThat(upstream.calls()).isEqualTo(1);
            assertThat(tookMillis).isLessThan(2000);
        }
    }
}
