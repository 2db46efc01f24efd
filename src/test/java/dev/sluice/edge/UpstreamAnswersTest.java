package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Ports;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the caller sees when the one deployment fails: the upstream's own status and words
 * for an answer, a 502 or 408 naming the deployment when there was no answer.
 */
class UpstreamAnswersTest {


    @ParameterizedTest(name = "{0} answers {1}")
    @CsvSource({
            "FAIL, 500, server_error",
            "RATELIMIT, 429, rate_limit_error",
            "AUTH, 401, ",
            "NOTFOUND, 404, ",
            "REJECT, 400, invalid_request_error"})
    void upstreamErrorReachesTheCallerWithItsStatusAndMessage(MockMode mode, int status, String type) throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", mode));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            // One attempt, so that every status is answered as it came (retries are ReliabilityTest's).
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "x-litellm-num-retries", "0");

            assertThat(response.statusCode()).isEqualTo(status);
            JsonNode error = Json.parse(response.body().getBytes()).get("error");
            assertThat(error.get("message").asText()).startsWith("[up]")
                    .endsWith("Sluice: model group 'chat' failed with the error above. No fallback was attempted.");
            assertThat(error.get("upstream_status").asInt()).isEqualTo(status);
            if (type != null) {
                assertThat(error.get("type").asText()).isEqualTo(type);
            }
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("dep-1");
            assertThat(upstream.requests()).isEqualTo(1);
        }
    }

    @Test
    void anUpstreamThatQuotesTheGatewaysKeyHasItMaskedBeforeTheCallerSeesIt() throws IOException {
        String key = "sk-upstream-secret-0123456789";
        try (dev.sluice.testing.ScriptedUpstream upstream = dev.sluice.testing.ScriptedUpstream.start("quoting",
                        new dev.sluice.testing.ScriptedUpstream.Reply(401,
                                "{\"error\":{\"message\":\"Incorrect API key provided: " + key + ".\",\"type\":\"invalid_request_error\","
                                        + "\"code\":\"invalid_api_key\"}}", null));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, api_key: %s}}
                        router_settings: {num_retries: 0}
                        """.formatted(upstream.baseUrl(), key))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.body()).doesNotContain(key).contains("Incorrect API key provided: ****6789.");
        }
    }

    @Test
    void aKeyTakenFromTheEnvironmentIsMaskedInEveryStringOfTheErrorAndInEveryRelayedHeader() throws IOException {
        String key = "sk-from-the-environment-9876543210";
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + key + ".\",\"type\":\"invalid_request_error\","
                + "\"param\":\"" + key + "\",\"code\":\"bad_key_" + key + "\",\"details\":{\"sent\":[\"Bearer " + key + "\"]}},"
                + "\"echo\":\"" + key + "\"}";
        try (dev.sluice.testing.ScriptedUpstream upstream = dev.sluice.testing.ScriptedUpstream.start("quoting",
                        dev.sluice.testing.ScriptedUpstream.Reply.body(401, "application/json", body,
                                "x-seen-authorization", "Bearer " + key, "www-authenticate", "Bearer realm=" + key));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        router_settings: {num_retries: 0}
                        """.formatted(upstream.baseUrl()), java.util.Map.of("OPENAI_API_KEY", key))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.body()).doesNotContain(key).contains("Incorrect API key provided: ****3210.");
            JsonNode error = Json.parse(answer.body().getBytes()).path("error");
            assertThat(error.path("param").asText()).isEqualTo("****3210");
            assertThat(error.path("code").asText()).isEqualTo("bad_key_****3210");
            assertThat(answer.headers().map().toString()).doesNotContain(key);
            assertThat(answer.headers().firstValue("llm_provider-x-seen-authorization")).hasValue("Bearer ****3210");
        }
    }

    @Test
    void aKeyEchoedInAnotherCaseCutShortOrEncodedIsMaskedInTheErrorAndTheRelayedHeaders() throws IOException {
        String key = "sk-echoed+Secret/0123456789abcdef";
        String basic = java.util.Base64.getEncoder().encodeToString((":" + key).getBytes(StandardCharsets.UTF_8));
        String body = "{\"error\":{\"message\":\"Incorrect API key provided: " + key.toUpperCase() + ". You sent "
                + key.substring(0, 16) + "... (" + key.substring(16) + ")\",\"type\":\"invalid_request_error\","
                + "\"param\":\"" + basic + "\",\"code\":\"" + java.net.URLEncoder.encode(key + "/x", StandardCharsets.UTF_8)
                + "\",\"kept\":\"" + key.substring(0, 11) + "\"}}";
        try (ScriptedUpstream upstream = ScriptedUpstream.start("echoing", Reply.body(401, "application/json", body,
                        "x-seen-authorization", "Basic " + basic, "x-seen-key", key.substring(4, 20).toUpperCase()));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, api_key: %s}}
                        router_settings: {num_retries: 0}
                        """.formatted(upstream.baseUrl(), key))) {
            HttpResponse<String> answer = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(answer.statusCode()).isEqualTo(401);
            JsonNode error = Json.parse(answer.body().getBytes()).path("error");
            assertThat(error.path("message").asText()).contains("Incorrect API key provided: ****cdef. You sent ****... (****)");
            // Only the characters at the ends, which hold bits of ":" and the padding too, are left.
            assertThat(error.path("param").asText()).matches(".{0,2}\\*\\*\\*\\*.{0,3}");
            assertThat(error.path("code").asText()).isEqualTo("****%2Fx");
            assertThat(answer.body().toLowerCase()).doesNotContain(key.substring(0, 12).toLowerCase(), key.substring(20).toLowerCase())
                    .as("eleven characters are ordinary text").contains(key.substring(0, 11).toLowerCase());
            assertThat(answer.headers().firstValue("llm_provider-x-seen-authorization").orElseThrow()).startsWith("Basic ")
                    .contains("****").doesNotContain(basic.substring(4, 16));
            assertThat(answer.headers().firstValue("llm_provider-x-seen-key")).hasValue("****");
        }
    }

    @Test
    void contextWindowRefusalKeepsItsCode() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.CONTEXT).withMaxChars(10));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "a prompt longer than ten"));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(Json.parse(response.body().getBytes()).at("/error/code").asText()).isEqualTo("context_length_exceeded");
        }
    }

    @Test
    void refusedConnectionIsA502NamingTheDeployment() throws IOException {
        try (TestGateway gateway = TestGateway.start(Configs.singleDeployment("http://127.0.0.1:" + Ports.refusing() + "/v1", ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(502);
            JsonNode error = Json.parse(response.body().getBytes()).get("error");
            assertThat(error.get("message").asText()).contains("deployment 'dep-1'").contains("model group 'chat'")
                    .contains("connection refused");
            assertThat(error.get("code").asText()).isEqualTo("upstream_unreachable");
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("dep-1");
        }
    }

    @Test
    void hangingUpstreamTimesOutWith408AfterTheDeploymentTimeout() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.HANG));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ", timeout: 0.3"))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(response.statusCode()).isEqualTo(408);
            assertThat(Json.parse(response.body().getBytes()).at("/error/code").asText()).isEqualTo("upstream_timeout");
            assertThat(took).isBetween(Duration.ofMillis(250), Duration.ofSeconds(3));
        }
    }

    @Test
    void nonOpenAiErrorBodiesAreWrappedWithTheirTextKept() throws IOException {
        try (ScriptedUpstream html = ScriptedUpstream.always("html",
                        Reply.body(503, "text/html", "<html><body>502 Bad Gateway from nginx</body></html>"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(html.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(503);
            JsonNode error = Json.parse(response.body().getBytes()).get("error");
            assertThat(error.get("message").asText()).contains("502 Bad Gateway from nginx");
            assertThat(error.get("type").asText()).isEqualTo("server_error");
            assertThat(error.get("upstream_status").asInt()).isEqualTo(503);
        }
    }

    @Test
    void anthropicShapedErrorKeepsItsMessage() throws IOException {
        try (ScriptedUpstream anthropic = ScriptedUpstream.always("anthropic", Reply.body(529, null,
                        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(anthropic.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(529);
            JsonNode error = Json.parse(response.body().getBytes()).get("error");
            assertThat(error.get("message").asText())
                    .isEqualTo("Overloaded\n\nSluice: model group 'chat' failed with the error above. No fallback was attempted.");
            assertThat(error.get("code").asText()).isEqualTo("overloaded_error");
        }
    }

    @Test
    void successBodyThatIsNotJsonIsA502() throws IOException {
        try (ScriptedUpstream broken = ScriptedUpstream.always("broken", Reply.body(200, null, "not json"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(broken.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(Json.parse(response.body().getBytes()).at("/error/code").asText()).isEqualTo("invalid_upstream_response");
        }
    }
}
