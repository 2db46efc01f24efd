package dev.sluice.edge;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Non-streaming calls through a real gateway to real mock upstreams. */
class ChatCompletionsTest {
    private MockUpstream alpha;
    private MockUpstream beta;
    private TestGateway gateway;

    @BeforeEach
    void start() {
        alpha = MockUpstream.start(MockOptions.defaults("alpha", MockMode.OK));
        beta = MockUpstream.start(MockOptions.defaults("beta", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/alpha-model, api_base: %s, api_key: alpha-key}
                    model_info: {id: alpha-1}
                  - model_name: other
                    litellm_params: {model: hosted_vllm/beta-model, api_base: %s}
                    model_info: {id: beta-1}
                """.formatted(alpha.baseUrl(), beta.baseUrl()));
    }

    @AfterEach
    void stop() {
        gateway.close();
        alpha.close();
        beta.close();
    }

    @Test
    void answersFromTheGroupsDeploymentWithRoutingHeaders() throws IOException {
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hello there"));

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = Json.parse(response.body().getBytes());
        assertThat(body.at("/choices/0/message/content").asText()).startsWith("[alpha]");
        assertThat(body.at("/usage/total_tokens").asInt()).isPositive();
        assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("alpha-1");
        assertThat(response.headers().firstValue("x-litellm-model-group")).hasValue("chat");
        assertThat(response.headers().firstValue("x-litellm-attempted-retries")).hasValue("0");
        assertThat(response.headers().firstValue("x-litellm-call-id")).hasValueSatisfying(id -> assertThat(id).hasSize(36));
        assertThat(alpha.requests()).isEqualTo(1);
        assertThat(beta.requests()).isZero();
    }

    @Test
    void routesEachGroupToItsOwnDeployments() throws IOException {
        HttpResponse<String> response = gateway.post("/chat/completions", Chat.body("other", "hi"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Json.parse(response.body().getBytes()).at("/choices/0/message/content").asText()).startsWith("[beta]");
        assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("beta-1");
        assertThat(alpha.requests()).isZero();
    }

    @Test
    void forwardsTheBodyWithModelReplacedAndSluiceFieldsRemoved() {
        String body = """
                {"model":"chat","messages":[{"role":"user","content":"hi"}],
                 "temperature":0.2,"some_future_param":{"x":[1,2]},
                 "num_retries":3,"fallbacks":["other"],"context_window_fallbacks":[],"content_policy_fallbacks":[],
                 "disable_fallbacks":true,"router_settings_override":{"timeout":3},"mock_testing_fallbacks":true}
                """;
        HttpResponse<String> response = gateway.post("/v1/chat/completions", body);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode forwarded = alpha.receivedBodies().get(0);
        assertThat(forwarded.get("model").asText()).isEqualTo("alpha-model");
        assertThat(forwarded.get("temperature").asDouble()).isEqualTo(0.2);
        assertThat(forwarded.at("/some_future_param/x/1").asInt()).isEqualTo(2);
        assertThat(forwarded.has("num_retries")).isFalse();
        assertThat(forwarded.has("fallbacks")).isFalse();
        assertThat(forwarded.has("context_window_fallbacks")).isFalse();
        assertThat(forwarded.has("content_policy_fallbacks")).isFalse();
        assertThat(forwarded.has("disable_fallbacks")).isFalse();
        assertThat(forwarded.has("router_settings_override")).isFalse();
        assertThat(forwarded.has("mock_testing_fallbacks")).isFalse();
    }

    @Test
    void sendsTheDeploymentsKeyUpstreamNotTheCallers() {
        gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "Authorization", "Bearer caller-key");

        assertThat(alpha.receivedHeaders().get(0)).containsEntry("authorization", "Bearer alpha-key");
    }

    @Test
    void echoesTheCallersCallId() {
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"),
                "x-litellm-call-id", "trace-123");

        assertThat(response.headers().firstValue("x-litellm-call-id")).hasValue("trace-123");
    }

    @Test
    void completionsAndEmbeddingsAreRoutedToo() throws IOException {
        HttpResponse<String> completion = gateway.post("/v1/completions", "{\"model\":\"chat\",\"prompt\":\"Say hi\"}");
        HttpResponse<String> embedding = gateway.post("/v1/embeddings", "{\"model\":\"chat\",\"input\":\"Say hi\"}");

        assertThat(completion.statusCode()).isEqualTo(200);
        assertThat(Json.parse(completion.body().getBytes()).get("object").asText()).isEqualTo("text_completion");
        assertThat(embedding.statusCode()).isEqualTo(200);
        assertThat(Json.parse(embedding.body().getBytes()).at("/data/0/embedding").isArray()).isTrue();
        assertThat(alpha.requests()).isEqualTo(2);
    }

    @Test
    void listsModelGroupsInOpenAisShape() throws IOException {
        HttpResponse<String> response = gateway.get("/v1/models");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = Json.parse(response.body().getBytes());
        assertThat(body.get("object").asText()).isEqualTo("list");
        assertThat(body.findValuesAsText("id")).containsExactly("chat", "other");
        assertThat(body.at("/data/0/object").asText()).isEqualTo("model");
    }

    @Test
    void healthProbesAnswerWithoutAKey() throws IOException {
        assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
        HttpResponse<String> readiness = gateway.get("/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(Json.parse(readiness.body().getBytes()).get("status").asText()).isEqualTo("healthy");
    }
}
