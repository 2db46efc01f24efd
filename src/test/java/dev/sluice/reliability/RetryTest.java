package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Ports;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Failures that say the backend was unavailable (transport, timeout, 429, 5xx, 408, 425) are
 * repeated in place when no untried sibling is left, within the retry budget and the total
 * deadline; nothing else is.
 */
class RetryTest {

    private static String single(String apiBase, String routerSettings) {
        return """
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                router_settings: %s
                """.formatted(apiBase, routerSettings);
    }

    @ParameterizedTest(name = "{0} is retried")
    @ValueSource(ints = {408, 425, 429, 500, 502, 503})
    void unavailableStatusesAreRetried(int status) throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(status));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 2}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(2);
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("1");
        }
    }

    @ParameterizedTest(name = "{0} is not retried")
    @ValueSource(ints = {400, 401, 403, 404, 413, 422})
    void settledStatusesAreNotRepeatedInPlace(int status) throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(status));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 2}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(status);
            assertThat(upstream.calls()).isEqualTo(1);
        }
    }

    @Test
    void retriesStopAtNumRetriesAndAnswerTheLastUpstreamError() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500), Reply.status(502), Reply.status(503), Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 2}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(upstream.calls()).isEqualTo(3);
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("2");
            assertThat(SiblingFailoverTest.error(response).path("message").asText()).startsWith("scripted 503");
        }
    }

    @Test
    void numRetriesZeroMakesOneCall() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 0}"))) {
            assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(500);
            assertThat(upstream.calls()).isEqualTo(1);
        }
    }

    @Test
    void perClassRetryPolicyBeatsTheGenericCount() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(429), Reply.status(429), Reply.status(429));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(),
                        "{num_retries: 0, retry_policy: {RateLimitErrorRetries: 3}}"))) {
            assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(4);
        }
    }

    @Test
    void groupRetryPolicyBeatsTheRoutersPolicy() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(),
                        "{retry_policy: {InternalServerErrorRetries: 5}, model_group_retry_policy: {g: {InternalServerErrorRetries: 1}}}"))) {
            assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(500);
            assertThat(upstream.calls()).isEqualTo(2);
        }
    }

    @Test
    void callerSentCountBeatsTheConfigAndIsCappedByTheMaximum() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500), Reply.status(500), Reply.status(500),
                Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 0, max_client_num_retries: 2}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"num_retries\":9,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(upstream.calls()).as("9 asked, 2 allowed").isEqualTo(3);
        }
    }

    @Test
    void numRetriesHeaderIsHonoured() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 0}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"), "x-litellm-num-retries", "1");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(2);
        }
    }

    @Test
    void malformedCallerCountIsA400() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"num_retries\":-1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(SiblingFailoverTest.error(response).path("param").asText()).isEqualTo("num_retries");
            assertThat(upstream.calls()).isZero();
        }
    }

    @Test
    void rateLimitInASingleDeploymentGroupWaitsForItsRetryAfter() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", new Reply(429, "{\"error\":{\"message\":\"slow down\"}}", "1"));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 1}"))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(upstream.calls()).isEqualTo(2);
            assertThat(tookMillis).as("waited for Retry-After: 1").isGreaterThanOrEqualTo(950);
        }
    }

    @Test
    void retryAfterLongerThanTheTotalDeadlineIsNotWaitedFor() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", new Reply(429, "{\"error\":{\"message\":\"slow down\"}}", "30"));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 1, timeout: 20}"))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));
            long tookMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("retry-after")).hasValue("30");
            assertThat(upstream.calls()).isEqualTo(1);
            assertThat(tookMillis).as("answered at once, not at the 20 s deadline").isLessThan(10_000);
        }
    }

    @Test
    void refusedConnectionIsRetriedThenAnswered502NamingTheDeployment() throws IOException {
        RecordingEvents events = new RecordingEvents();
        try (TestGateway gateway = TestGateway.start(single("http://127.0.0.1:" + Ports.refusing() + "/v1", "{num_retries: 2}"),
                Map.of(), events)) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("upstream_unreachable");
            assertThat(SiblingFailoverTest.error(response).path("message").asText()).contains("deployment 'a'", "connection refused");
            assertThat(events.brief()).containsExactly(
                    "attempt a", "failed a transport", "retry a transport",
                    "attempt a", "failed a transport", "retry a transport",
                    "attempt a", "failed a transport");
        }
    }

    @Test
    void everyBackendOfAGroupUnreachableIsA503() throws IOException {
        try (TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:%d/v1"}, model_info: {id: a}}
                  - {model_name: g, litellm_params: {model: openai/b, api_base: "http://127.0.0.1:%d/v1"}, model_info: {id: b}}
                router_settings: {num_retries: 1}
                """.formatted(Ports.refusing(), Ports.refusing()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(SiblingFailoverTest.error(response).path("code").asText()).isEqualTo("all_backends_unavailable");
            assertThat(SiblingFailoverTest.error(response).path("message").asText()).contains("deployment 'a'", "deployment 'b'");
        }
    }

    @Test
    void callersPerClassPolicyIsCappedLikeItsCount() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500), Reply.status(500), Reply.status(500),
                Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{max_client_num_retries: 1}"))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"g","router_settings_override":{"model_group_retry_policy":{"g":{"InternalServerErrorRetries":6}}},
                     "messages":[{"role":"user","content":"hi"}]}""");
            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(upstream.calls()).isEqualTo(2);
        }
    }

    @Test
    void overrideBeatsTheBodyWhichBeatsTheHeader() throws IOException {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up", Reply.status(500), Reply.status(500), Reply.status(500),
                Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500), Reply.status(500));
                TestGateway gateway = TestGateway.start(single(upstream.baseUrl(), "{num_retries: 0}"))) {
            gateway.post("/v1/chat/completions", """
                    {"model":"g","router_settings_override":{"num_retries":1},"num_retries":3,
                     "messages":[{"role":"user","content":"hi"}]}""", "x-litellm-num-retries", "4");
            assertThat(upstream.calls()).as("override: 1 retry").isEqualTo(2);
            gateway.post("/v1/chat/completions", """
                    {"model":"g","num_retries":2,"messages":[{"role":"user","content":"hi"}]}""", "x-litellm-num-retries", "4");
            assertThat(upstream.calls()).as("body: 2 retries").isEqualTo(5);
        }
    }

    @Test
    void transientFailureIsRepeatedEvenAfterASiblingRefused() throws IOException {
        try (ScriptedUpstream flaky = ScriptedUpstream.start("flaky", Reply.status(500));
                ScriptedUpstream gone = ScriptedUpstream.start("gone", Reply.status(404));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: flaky}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: gone}}
                        router_settings: {num_retries: 3}
                        """.formatted(flaky.baseUrl(), gone.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("flaky");
            assertThat(java.util.List.of(flaky.calls(), gone.calls())).containsExactly(2, 1);
        }
    }
}
