package dev.sluice.vendors.vertex.provider;

import static dev.sluice.vendors.vertex.provider.VertexGatewayTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Claude on Vertex AI ({@code vertex_ai/claude-...}) through a real gateway: the Messages body
 * without {@code model} and with {@code anthropic_version: vertex-2023-10-16} goes to the
 * publisher model's {@code rawPredict} or {@code streamRawPredict} with an OAuth2 token from a
 * real exchange, and the Anthropic answers, streams and errors come back in OpenAI's shape.
 */
class VertexClaudeGatewayTest {
    private final List<AutoCloseable> started = new ArrayList<>();
    private TokenServer tokens;

    @BeforeEach
    void start() throws Exception {
        tokens = new TokenServer();
        started.add(tokens);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : started.reversed()) {
            c.close();
        }
    }

    private MockUpstream claude(MockMode mode) {
        MockUpstream mock = MockUpstream.start(MockOptions.defaults("vtx-claude", mode).withApi(MockApi.ANTHROPIC)
                .withApiKey(TokenServer.ACCESS_TOKEN));
        started.add(mock);
        return mock;
    }

    private TestGateway gateway(MockUpstream mock) {
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - model_name: claude
                    litellm_params:
                      model: vertex_ai/claude-sonnet-4-5@20250929
                      api_base: http://127.0.0.1:%d
                      vertex_project: proj
                      vertex_location: us-east5
                      vertex_credentials: '%s'
                      extra_headers: {anthropic-beta: context-1m-2025-08-07}
                router_settings: {num_retries: 0}
                """.formatted(mock.port(), tokens.serviceAccountJson("key-project")));
        started.add(gateway);
        return gateway;
    }

    @Test
    void aWholeCallIsAMessagesBodyToRawPredictAnsweredInOpenAisShape() throws IOException {
        MockUpstream mock = claude(MockMode.AUTH); // answers only the exchanged token
        TestGateway gateway = gateway(mock);

        HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                {"model":"claude","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hello"}]}""");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response.body());
        assertThat(answer.get("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.at("/choices/0/message/content").asText()).isEqualTo("[vtx-claude] you said: hello");
        assertThat(answer.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        JsonNode sent = mock.receivedBodies().getFirst();
        assertThat(sent.has("model")).as("Vertex names the model in the URL").isFalse();
        assertThat(sent.get("anthropic_version").asText()).isEqualTo("vertex-2023-10-16");
        assertThat(sent.at("/system/0/text").asText()).isEqualTo("be brief");
        assertThat(sent.get("max_tokens").asInt()).as("the catalog's output limit for claude-sonnet-4-5").isEqualTo(64000);
        assertThat(mock.receivedHeaders().getFirst()).containsEntry("authorization", "Bearer " + TokenServer.ACCESS_TOKEN)
                .containsEntry("anthropic-beta", "context-1m-2025-08-07").doesNotContainKey("x-api-key");
        assertThat(response.body()).doesNotContain(TokenServer.ACCESS_TOKEN);
        assertThat(tokens.exchanges()).hasSize(1);
    }

    @Test
    void aStreamGoesToStreamRawPredictAndComesBackAsOpenAiChunks() {
        MockUpstream mock = claude(MockMode.OK);
        TestGateway gateway = gateway(mock);

        HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                {"model":"claude","stream":true,"stream_options":{"include_usage":true},
                 "messages":[{"role":"user","content":"stream please"}]}""");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).contains("chat.completion.chunk", "\"finish_reason\":\"stop\"", "\"usage\"", "data: [DONE]");
        assertThat(mock.receivedBodies().getFirst().get("stream").asBoolean()).isTrue();
    }

    @Test
    void anOverloadedClaudeIsAServerFailureInOpenAisShape() throws IOException {
        MockUpstream mock = claude(MockMode.FAIL);
        TestGateway gateway = gateway(mock);

        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"));

        assertThat(response.statusCode()).isEqualTo(529);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("overloaded_error");
        assertThat(error.get("message").asText()).contains("Overloaded");
    }
}
