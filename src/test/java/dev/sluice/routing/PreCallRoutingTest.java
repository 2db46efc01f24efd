package dev.sluice.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The pre-call checks over real sockets: context windows, and conversations kept on the deployment caching them. */
class PreCallRoutingTest {

    private static String longText(int words) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < words; i++) {
            s.append("word").append(i % 50).append(' ');
        }
        return s.toString();
    }

    @Test
    void promptOverADeploymentsWindowGoesToOneThatFitsAndOverAllOfThemToTheContextWindowFallbacks() throws IOException {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.OK));
                MockUpstream large = MockUpstream.start(MockOptions.defaults("large", MockMode.OK));
                MockUpstream huge = MockUpstream.start(MockOptions.defaults("huge", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 100}, model_info: {id: small, max_input_tokens: 100}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 1}, model_info: {id: large, max_input_tokens: 2000}}
                          - {model_name: big, litellm_params: {model: openai/c, api_base: %s}, model_info: {id: huge, max_input_tokens: 100000}}
                        router_settings:
                          enable_pre_call_checks: true
                          context_window_fallbacks: [{g: [big]}]
                        """.formatted(small.baseUrl(), large.baseUrl(), huge.baseUrl()))) {
            String medium = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"" + longText(400) + "\"}]}";
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = gateway.post("/v1/chat/completions", medium);
                assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("large");
            }
            assertThat(small.requests()).as("never offered a prompt over its window").isZero();

            String enormous = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"" + longText(3000) + "\"}]}";
            HttpResponse<String> response = gateway.post("/v1/chat/completions", enormous);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("huge");
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).hasValue("1");
            assertThat(large.requests()).isEqualTo(3);
        }
    }

    @Test
    void promptOverEveryWindowWithoutFallbacksIsA400ContextLengthExceeded() throws IOException {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: small, max_input_tokens: 100}}
                        router_settings: {enable_pre_call_checks: true}
                        """.formatted(small.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions",
                    "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"" + longText(400) + "\"}]}");

            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode error = Json.MAPPER.readTree(response.body()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("context_length_exceeded");
            assertThat(error.path("message").asText()).contains("small", "No fallback was attempted.");
            assertThat(small.requests()).isZero();
        }
    }

    @Test
    void cachedConversationSticksToItsDeploymentOverAHeavierOneAddedAtRunTime() throws IOException {
        try (MockUpstream first = MockUpstream.start(MockOptions.defaults("first", MockMode.OK));
                MockUpstream heavy = MockUpstream.start(MockOptions.defaults("heavy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/gpt-4o, api_base: %s, weight: 1}, model_info: {id: first}}
                        router_settings: {optional_pre_call_checks: [prompt_caching]}
                        general_settings: {master_key: sk-admin}
                        """.formatted(first.baseUrl()))) {
            ObjectNode turn1 = Json.MAPPER.createObjectNode().put("model", "g");
            ArrayNode messages = turn1.putArray("messages");
            messages.addObject().put("role", "system").put("content", "You are a careful assistant. " + longText(1500));
            messages.addObject().put("role", "user").put("content", "First question?");
            HttpResponse<String> answer1 = gateway.post("/v1/chat/completions", turn1.toString(), "Authorization", "Bearer sk-admin");
            assertThat(answer1.headers().firstValue("x-litellm-model-id")).hasValue("first");

            HttpResponse<String> added = gateway.post("/model/new", """
                    {"model_name":"g","litellm_params":{"model":"openai/gpt-4o","api_base":"%s","weight":1000},"model_info":{"id":"heavy"}}"""
                    .formatted(heavy.baseUrl()), "Authorization", "Bearer sk-admin");
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);

            ObjectNode turn2 = turn1.deepCopy();
            ArrayNode next = (ArrayNode) turn2.get("messages");
            next.addObject().put("role", "assistant").put("content",
                    Json.MAPPER.readTree(answer1.body()).path("choices").path(0).path("message").path("content").asText());
            next.addObject().put("role", "user").put("content", "Second question?");
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> answer = gateway.post("/v1/chat/completions", turn2.toString(), "Authorization", "Bearer sk-admin");
                assertThat(answer.headers().firstValue("x-litellm-model-id")).as("the conversation stays where its prefix is cached")
                        .hasValue("first");
            }

            String fresh = "{\"model\":\"g\",\"messages\":[{\"role\":\"user\",\"content\":\"unrelated\"}]}";
            int toHeavy = 0;
            for (int i = 0; i < 10; i++) {
                if (gateway.post("/v1/chat/completions", fresh, "Authorization", "Bearer sk-admin").headers()
                        .firstValue("x-litellm-model-id").orElseThrow().equals("heavy")) {
                    toHeavy++;
                }
            }
            assertThat(toHeavy).as("new conversations go by weight to the added deployment: on the seeded random every one").isEqualTo(10);
        }
    }

    @Test
    void addingAModelNeedsTheMasterKeyAndAValidEntry() throws IOException {
        try (TestGateway open = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9/v1"}}
                        """);
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: "http://127.0.0.1:9/v1"}, model_info: {id: g1}}
                        general_settings: {master_key: sk-admin}
                        """)) {
            String entry = "{\"model_name\":\"g\",\"litellm_params\":{\"model\":\"openai/b\",\"api_base\":\"http://127.0.0.1:9/v1\"}}";
            assertThat(open.post("/model/new", entry).statusCode()).isEqualTo(403);
            assertThat(gateway.post("/model/new", entry).statusCode()).isEqualTo(401);

            HttpResponse<String> notJson = gateway.post("/model/new", "not json", "Authorization", "Bearer sk-admin");
            assertThat(notJson.statusCode()).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(notJson.body()).path("error").path("message").asText())
                    .contains("(line 1, column").doesNotContain("Source:");

            HttpResponse<String> bad = gateway.post("/model/new",
                    "{\"model_name\":\"g\",\"litellm_params\":{\"model\":\"openai/b\",\"api_base\":\"ftp://x\",\"weight\":-1}}",
                    "Authorization", "Bearer sk-admin");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(bad.body()).path("error").path("message").asText())
                    .contains("litellm_params.api_base", "litellm_params.weight");

            HttpResponse<String> duplicate = gateway.post("/model/new",
                    "{\"model_name\":\"g\",\"litellm_params\":{\"model\":\"openai/b\",\"api_base\":\"http://127.0.0.1:9/v1\"},\"model_info\":{\"id\":\"g1\"}}",
                    "Authorization", "Bearer sk-admin");
            assertThat(duplicate.statusCode()).isEqualTo(409);
        }
    }
}
