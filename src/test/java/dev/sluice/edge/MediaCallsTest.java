package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Image generations, speech, moderations and rerank through the gateway to a real mock
 * upstream: each answers in its API's shape, is priced by what it made and logged with that
 * cost, fails over from a deployment that answers 500, and refuses what it cannot route
 * (a missing field, a deployment whose provider or mode does not serve the call) with a 400
 * in OpenAI's error shape.
 */
class MediaCallsTest {
    static final String MASTER = "sk-master-media";

    private static MockUpstream mock;
    private static ScriptedUpstream broken;
    private static TestDatabase store;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        mock = MockUpstream.start(MockOptions.defaults("media", MockMode.OK));
        broken = ScriptedUpstream.always("broken", ScriptedUpstream.Reply.body(500, "application/json",
                "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"));
        store = TestDatabases.h2();
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: images, litellm_params: {model: openai/dall-e-3, api_base: %1$s, output_cost_per_image: 0.04}, model_info: {mode: image_generation}}
                  - {model_name: speech, litellm_params: {model: openai/tts-1, api_base: %1$s, input_cost_per_character: 0.000015}}
                  - {model_name: omni-moderation-latest, litellm_params: {model: openai/omni-moderation-latest, api_base: %1$s}}
                  - {model_name: reranker, litellm_params: {model: cohere/rerank-english-v3.0, api_base: %1$s, input_cost_per_query: 0.002}}
                  - {model_name: chatty, litellm_params: {model: openai/gpt-4o, api_base: %1$s}, model_info: {mode: chat}}
                  - {model_name: gemini-images, litellm_params: {model: gemini/gemini-2.0-flash, api_key: g}}
                  - {model_name: openai-rerank, litellm_params: {model: openai/gpt-4o, api_base: %1$s}}
                  - {model_name: flaky-images, litellm_params: {model: openai/dall-e-3, api_base: %2$s, weight: 1}}
                  - {model_name: flaky-images, litellm_params: {model: openai/dall-e-3, api_base: %1$s, weight: 0}}
                general_settings:
                  master_key: %3$s
                  %4$s
                """.formatted(mock.baseUrl(), broken.baseUrl(), MASTER, store.generalSetting()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        broken.close();
        mock.close();
        store.close();
    }

    static HttpResponse<String> post(String path, String json) {
        return gateway.post(path, json, "Authorization", "Bearer " + MASTER);
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static SpendRow spendRow(TestDatabase store, HttpResponse<String> response) {
        String callId = response.headers().firstValue("x-litellm-call-id").orElseThrow();
        SpendRepository spend = new SpendRepository(store.database());
        return Eventually.value("a spend row for call " + callId, Duration.ofSeconds(10), () -> spend.find(callId));
    }

    @Test
    void imagesAreGeneratedAndPricedPerImage() throws IOException {
        HttpResponse<String> response = post("/v1/images/generations",
                "{\"model\":\"images\",\"prompt\":\"a red kite\",\"n\":2,\"size\":\"1024x1024\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response);
        assertThat(answer.path("created").asLong()).isPositive();
        assertThat(answer.path("data")).hasSize(2);
        assertThat(answer.path("data").get(0).path("revised_prompt").asText()).isEqualTo("a red kite");
        assertThat(mock.receivedBodies().getLast().path("model").asText()).isEqualTo("dall-e-3");
        assertThat(response.headers().firstValue("x-litellm-model-group")).contains("images");
        assertThat(response.headers().firstValue("x-litellm-response-cost")).contains("0.08");
        SpendRow row = spendRow(store, response);
        assertThat(row.cost().doubleValue()).isEqualTo(0.08);
        assertThat(row.modelGroup()).isEqualTo("images");
        assertThat(row.status()).isEqualTo(200);
    }

    @Test
    void healthLeavesImageDeploymentsUnprobedAndProbesRerankWithARerank() throws IOException {
        int before = mock.requests();

        JsonNode images = json(gateway.get("/health?model=images", "Authorization", "Bearer " + MASTER));
        assertThat(images.path("healthy_endpoints")).isEmpty();
        assertThat(images.path("unhealthy_endpoints")).isEmpty();
        assertThat(mock.requests()).isEqualTo(before);

        JsonNode reranker = json(gateway.get("/health?model=reranker", "Authorization", "Bearer " + MASTER));
        assertThat(reranker.path("healthy_endpoints").findValuesAsText("model")).containsExactly("cohere/rerank-english-v3.0");
        assertThat(mock.requests()).isEqualTo(before + 1);
    }

    @Test
    void theShortPathServesImagesToo() {
        assertThat(post("/images/generations", "{\"model\":\"images\",\"prompt\":\"a kite\"}").statusCode()).isEqualTo(200);
    }

    @Test
    void speechIsAudioPricedPerCharacter() {
        HttpResponse<String> response = post("/v1/audio/speech",
                "{\"model\":\"speech\",\"input\":\"hello there\",\"voice\":\"alloy\",\"response_format\":\"mp3\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("audio/mpeg");
        assertThat(response.body()).isEqualTo("ID3hello there");
        // 11 characters at 0.000015 each
        assertThat(response.headers().firstValue("x-litellm-response-cost")).contains("0.000165");
        assertThat(spendRow(store, response).cost().doubleValue()).isEqualTo(0.000165);
    }

    @Test
    void aModerationWithoutAModelGoesToOpenAisDefaultModerationGroup() throws IOException {
        HttpResponse<String> response = post("/v1/moderations", "{\"input\":[\"a calm day\",\"forbidden words\"]}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response);
        assertThat(answer.path("model").asText()).isEqualTo("omni-moderation-latest");
        assertThat(answer.path("results").get(0).path("flagged").asBoolean()).isFalse();
        assertThat(answer.path("results").get(1).path("flagged").asBoolean()).isTrue();
        assertThat(response.headers().firstValue("x-litellm-model-group")).contains("omni-moderation-latest");
    }

    @Test
    void rerankIsCohereShapedAndPricedPerQuery() throws IOException {
        for (String path : new String[] {"/v1/rerank", "/v2/rerank", "/rerank"}) {
            HttpResponse<String> response = post(path, "{\"model\":\"reranker\",\"query\":\"red kite\",\"top_n\":2,"
                    + "\"return_documents\":true,\"documents\":[\"a blue sky\",\"a red kite flies\",\"a blue kite in a big sky\"]}");

            assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
            JsonNode answer = json(response);
            assertThat(answer.path("results")).hasSize(2);
            assertThat(answer.path("results").get(0).path("index").asInt()).isEqualTo(1);
            assertThat(answer.path("results").get(0).path("document").path("text").asText()).isEqualTo("a red kite flies");
            assertThat(answer.path("meta").path("billed_units").path("search_units").asInt()).isEqualTo(1);
            assertThat(response.headers().firstValue("x-litellm-response-cost")).contains("0.002");
        }
    }

    @Test
    void aDeploymentThatAnswers500FailsOverToItsSibling() throws IOException {
        int before = broken.calls();
        HttpResponse<String> response = post("/v1/images/generations", "{\"model\":\"flaky-images\",\"prompt\":\"a kite\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response).path("data")).hasSize(1);
        assertThat(broken.calls() - before).isEqualTo(1);
        assertThat(response.headers().firstValue("x-litellm-attempted-retries")).contains("1");
    }

    @Test
    void aMissingFieldIsA400NamingIt() {
        assertError(post("/v1/images/generations", "{\"prompt\":\"a kite\"}"), 400,
                "{\"error\":{\"message\":\"Missing required parameter: 'model'.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"model\",\"code\":\"missing_required_parameter\"}}");
        assertError(post("/v1/audio/speech", "{\"model\":\"speech\",\"voice\":\"alloy\"}"), 400,
                "{\"error\":{\"message\":\"Missing required parameter: 'input'.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"input\",\"code\":\"missing_required_parameter\"}}");
        assertError(post("/v1/rerank", "{\"model\":\"reranker\",\"query\":\"q\",\"documents\":\"one\"}"), 400,
                "{\"error\":{\"message\":\"Invalid type for 'documents': expected an array, but got a string instead.\","
                        + "\"type\":\"invalid_request_error\",\"param\":\"documents\",\"code\":\"invalid_type\"}}");
    }

    @Test
    void aDeploymentWhoseModeServesAnotherCallIsRefusedWith400() throws IOException {
        int before = mock.requests();
        HttpResponse<String> response = post("/v1/images/generations", "{\"model\":\"chatty\",\"prompt\":\"a kite\"}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response).path("error");
        assertThat(error.path("message").asText()).startsWith("Sluice: deployment '")
                .endsWith("' of model group 'chatty' has model_info.mode 'chat', which does not serve /v1/images/generations."
                        + "\n\nSluice: model group 'chatty' failed with the error above. No fallback was attempted.");
        assertThat(error.path("code").asText()).isEqualTo("unsupported_call_type");
        assertThat(error.path("param").asText()).isEqualTo("model");
        assertThat(mock.requests()).isEqualTo(before);
    }

    @Test
    void aProviderWithoutTheCallIsRefusedWith400NamingIt() throws IOException {
        HttpResponse<String> gemini = post("/v1/images/generations", "{\"model\":\"gemini-images\",\"prompt\":\"a kite\"}");
        assertThat(gemini.statusCode()).isEqualTo(400);
        assertThat(json(gemini).path("error").path("message").asText()).startsWith("Sluice: provider 'gemini' of deployment '")
                .contains("' (model group 'gemini-images') does not serve /v1/images/generations.");

        HttpResponse<String> openAi = post("/v1/rerank", "{\"model\":\"openai-rerank\",\"query\":\"q\",\"documents\":[\"d\"]}");
        assertThat(openAi.statusCode()).isEqualTo(400);
        assertThat(json(openAi).path("error").path("message").asText()).contains("provider 'openai'")
                .contains("does not serve /v1/rerank.");
    }

    @Test
    void aKeyCallsOnlyTheGroupsItMay() throws IOException {
        String key = json(post("/key/generate", "{\"models\":[\"speech\"]}")).path("key").asText();

        HttpResponse<String> allowed = gateway.post("/v1/audio/speech", "{\"model\":\"speech\",\"input\":\"hi\"}",
                "Authorization", "Bearer " + key);
        HttpResponse<String> denied = gateway.post("/v1/images/generations", "{\"model\":\"images\",\"prompt\":\"a kite\"}",
                "Authorization", "Bearer " + key);

        assertThat(allowed.statusCode()).as(allowed.body()).isEqualTo(200);
        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(json(denied).path("error").path("type").asText()).isEqualTo("key_model_access_denied");
        assertThat(json(denied).path("error").path("message").asText()).contains("Tried to access images");
    }

    @Test
    void aKeysBudgetCountsWhatItsImagesCost() throws IOException {
        String key = json(post("/key/generate", "{\"max_budget\":0.1}")).path("key").asText();
        String image = "{\"model\":\"images\",\"prompt\":\"a kite\"}";

        HttpResponse<String> first = gateway.post("/v1/images/generations", image, "Authorization", "Bearer " + key);
        HttpResponse<String> second = gateway.post("/v1/images/generations", image, "Authorization", "Bearer " + key);
        HttpResponse<String> third = gateway.post("/v1/images/generations", image, "Authorization", "Bearer " + key);

        // 0.04 an image: the first three find 0, 0.04 and 0.08 spent, under the budget of 0.1; the fourth finds 0.12.
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(third.statusCode()).isEqualTo(200);
        HttpResponse<String> fourth = gateway.post("/v1/images/generations", image, "Authorization", "Bearer " + key);
        assertThat(fourth.statusCode()).isEqualTo(400);
        assertThat(json(fourth).path("error").path("type").asText()).isEqualTo("budget_exceeded");
    }

    @Test
    void anUnknownGroupIsAnsweredAsForChat() throws IOException {
        HttpResponse<String> response = post("/v1/audio/speech", "{\"model\":\"nope\",\"input\":\"hi\"}");
        HttpResponse<String> chat = post("/v1/chat/completions", "{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertThat(response.statusCode()).isEqualTo(chat.statusCode());
        assertThat(json(response).path("error")).isEqualTo(json(chat).path("error"));
    }

    static void assertError(HttpResponse<String> response, int status, String body) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo(body);
    }
}
