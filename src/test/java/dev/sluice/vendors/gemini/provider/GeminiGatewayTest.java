package dev.sluice.vendors.gemini.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.EmbeddingAnswersTest;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code gemini/} deployments through a real gateway to the Gemini mock, called the OpenAI way. */
class GeminiGatewayTest {
    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : started.reversed()) {
            c.close();
        }
    }

    private MockUpstream gemini(String name, MockMode mode) {
        return gemini(MockOptions.defaults(name, mode).withApi(MockApi.GEMINI));
    }

    private MockUpstream gemini(MockOptions options) {
        MockUpstream mock = MockUpstream.start(options);
        started.add(mock);
        return mock;
    }

    private TestGateway gateway(String yaml) {
        TestGateway gateway = TestGateway.start(yaml);
        started.add(gateway);
        return gateway;
    }

    static String root(MockUpstream mock) {
        return "http://127.0.0.1:" + mock.port();
    }

    private TestGateway single(MockUpstream mock, String extra) {
        return gateway("""
                model_list:
                  - model_name: gem
                    litellm_params: {model: gemini/gemini-2.0-flash, api_base: %s, api_key: mock-key%s}
                """.formatted(root(mock), extra));
    }

    static JsonNode json(String text) throws IOException {
        return Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aWholeAnswerComesBackInOpenAisShapeWithTheKeyInGooglesHeader() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.AUTH);
        TestGateway gateway = single(mock, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                {"model": "gem", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hello"}],
                 "max_tokens": 50, "temperature": 0.1}""");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response.body());
        assertThat(body.at("/object").asText()).isEqualTo("chat.completion");
        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("[gem] you said: hello");
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(body.at("/usage/total_tokens").asInt()).isPositive();
        JsonNode sent = mock.receivedBodies().getLast();
        assertThat(sent.at("/systemInstruction/parts/0/text").asText()).isEqualTo("Be brief.");
        assertThat(sent.at("/generationConfig/maxOutputTokens").asInt()).isEqualTo(50);
        assertThat(mock.receivedHeaders().getLast()).containsEntry("x-goog-api-key", "mock-key");
    }

    @Test
    void aStreamIsOpenAiChunksEndingWithUsageAndDone() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = single(mock, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                {"model": "gem", "stream": true, "stream_options": {"include_usage": true},
                 "messages": [{"role": "user", "content": "stream this"}]}""");
        assertThat(response.statusCode()).isEqualTo(200);
        StringBuilder text = new StringBuilder();
        String finish = null;
        long usage = 0;
        for (String line : response.body().split("\n")) {
            if (!line.startsWith("data: {")) {
                continue;
            }
            JsonNode chunk = json(line.substring(6));
            text.append(chunk.at("/choices/0/delta/content").asText(""));
            if (chunk.at("/choices/0/finish_reason").isTextual()) {
                finish = chunk.at("/choices/0/finish_reason").asText();
            }
            usage = Math.max(usage, chunk.at("/usage/total_tokens").asLong(0));
        }
        assertThat(text.toString()).isEqualTo("[gem] you said: stream this");
        assertThat(finish).isEqualTo("stop");
        assertThat(usage).isPositive();
        assertThat(response.body().strip()).endsWith("data: [DONE]");
    }

    @Test
    void toolCallsGetIdsAndTheirResultsGoBackBoundToTheFunction() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = single(mock, "");
        String tools = """
                "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
                  "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false}}}]""";
        HttpResponse<String> first = gateway.post("/v1/chat/completions", """
                {"model": "gem", "messages": [{"role": "user", "content": "Weather in Paris?"}], %s}""".formatted(tools));
        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode call = json(first.body()).at("/choices/0/message/tool_calls/0");
        assertThat(json(first.body()).at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(call.at("/id").asText()).startsWith("call_");
        assertThat(call.at("/function/name").asText()).isEqualTo("get_weather");
        assertThat(json(call.at("/function/arguments").asText())).isEqualTo(json("{\"city\": \"mock\"}"));

        HttpResponse<String> second = gateway.post("/v1/chat/completions", """
                {"model": "gem", %s, "messages": [{"role": "user", "content": "Weather in Paris?"},
                  {"role": "assistant", "tool_calls": [%s]},
                  {"role": "tool", "tool_call_id": "%s", "content": "sunny"}]}"""
                .formatted(tools, call.toString(), call.at("/id").asText()));
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(json(second.body()).at("/choices/0/message/content").asText()).isEqualTo("[gem] you said: sunny");
        JsonNode sent = mock.receivedBodies().getLast();
        assertThat(sent.at("/contents/2/parts/0/functionResponse/name").asText()).isEqualTo("get_weather");
        assertThat(sent.at("/tools/0/functionDeclarations/0/parameters").has("additionalProperties")).isFalse();
    }

    @Test
    void aStreamedFunctionCallIsOneToolCallChunkEndingWithToolCalls() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = single(mock, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                {"model": "gem", "stream": true, "messages": [{"role": "user", "content": "Weather?"}],
                 "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
                   "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
                 "tool_choice": {"type": "function", "function": {"name": "get_weather"}}}""");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode call = null;
        String finish = null;
        for (String line : response.body().split("\n")) {
            if (line.startsWith("data: {")) {
                JsonNode chunk = json(line.substring(6));
                if (chunk.at("/choices/0/delta/tool_calls/0").isObject()) {
                    call = chunk.at("/choices/0/delta/tool_calls/0");
                }
                if (chunk.at("/choices/0/finish_reason").isTextual()) {
                    finish = chunk.at("/choices/0/finish_reason").asText();
                }
            }
        }
        assertThat(call).isNotNull();
        assertThat(call.at("/id").asText()).startsWith("call_");
        assertThat(call.at("/function/name").asText()).isEqualTo("get_weather");
        assertThat(json(call.at("/function/arguments").asText())).isEqualTo(json("{\"city\": \"mock\"}"));
        assertThat(finish).isEqualTo("tool_calls");
        assertThat(mock.receivedBodies().getLast().at("/toolConfig/functionCallingConfig/allowedFunctionNames/0").asText())
                .isEqualTo("get_weather");
    }

    @Test
    void embeddingsComeBackInOpenAisShape() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: embed
                    litellm_params: {model: gemini/text-embedding-004, api_base: %s, api_key: mock-key}
                """.formatted(root(mock)));
        HttpResponse<String> response = gateway.post("/v1/embeddings", """
                {"model": "embed", "input": ["one", "two"], "dimensions": 8}""");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response.body());
        assertThat(body.at("/object").asText()).isEqualTo("list");
        assertThat(body.at("/data")).hasSize(2);
        assertThat(body.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(body.at("/data/0/embedding")).hasSize(8);
        assertThat(mock.receivedBodies().getLast().at("/requests/1/outputDimensionality").asInt()).isEqualTo(8);
    }

    @Test
    void embeddingsAreChargedForTheirCountedPromptThoughGoogleReportsNoCount() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: embed
                    litellm_params: {model: gemini/text-embedding-004, api_base: %s, api_key: mock-key, input_cost_per_token: 0.001}
                """.formatted(root(mock)));
        HttpResponse<String> response = gateway.post("/v1/embeddings", """
                {"model": "embed", "input": ["the first text to embed", "and a second one"]}""");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        long prompt = json(response.body()).at("/usage/prompt_tokens").asLong();
        assertThat(prompt).isPositive();
        double cost = Double.parseDouble(response.headers().firstValue("x-litellm-response-cost").orElseThrow());
        assertThat(cost).isCloseTo(prompt * 0.001, within(1e-9));
    }

    @Test
    void aBase64EmbeddingDecodesToTheFloatsOfTheSameText() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: embed
                    litellm_params: {model: gemini/text-embedding-004, api_base: %s, api_key: mock-key}
                """.formatted(root(mock)));
        JsonNode floats = json(gateway.post("/v1/embeddings", """
                {"model": "embed", "input": "same text", "encoding_format": "float"}""").body());
        HttpResponse<String> response = gateway.post("/v1/embeddings", """
                {"model": "embed", "input": "same text", "encoding_format": "base64"}""");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        float[] decoded = EmbeddingAnswersTest.floats(json(response.body()).at("/data/0/embedding").asText());
        assertThat(decoded).hasSize(floats.at("/data/0/embedding").size());
        for (int i = 0; i < decoded.length; i++) {
            assertThat(decoded[i]).isEqualTo(floats.at("/data/0/embedding/" + i).floatValue());
        }
    }

    @Test
    void aParameterGeminiCannotTakeIsRefusedUnlessDropped() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.OK);
        TestGateway gateway = single(mock, "");
        HttpResponse<String> refused = gateway.post("/v1/chat/completions", """
                {"model": "gem", "messages": [{"role": "user", "content": "hi"}], "logit_bias": {"1": 1}}""");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).at("/error/param").asText()).isEqualTo("logit_bias");
        HttpResponse<String> dropped = gateway.post("/v1/chat/completions", """
                {"model": "gem", "messages": [{"role": "user", "content": "hi"}], "logit_bias": {"1": 1}, "drop_params": true}""");
        assertThat(dropped.statusCode()).isEqualTo(200);
        assertThat(dropped.headers().firstValue("x-sluice-dropped-params")).hasValue("logit_bias");
    }

    @Test
    void aRateLimitIsRetriedAfterGooglesRetryDelay() throws IOException {
        MockUpstream mock = gemini(MockOptions.defaults("gem", MockMode.RATELIMIT).withApi(MockApi.GEMINI).withTimes(1));
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: gem
                    litellm_params: {model: gemini/gemini-2.0-flash, api_base: %s, api_key: mock-key}
                router_settings: {num_retries: 1}
                """.formatted(root(mock)));
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("gem", "hi"));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(mock.requests()).isEqualTo(2);
    }

    @Test
    void aRateLimitFailsOverToASibling() throws IOException {
        MockUpstream limited = gemini("limited", MockMode.RATELIMIT);
        MockUpstream healthy = gemini("healthy", MockMode.OK);
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: gem
                    litellm_params: {model: gemini/gemini-2.0-flash, api_base: %s, api_key: mock-key}
                  - model_name: gem
                    litellm_params: {model: gemini/gemini-2.0-flash, api_base: %s, api_key: mock-key}
                router_settings: {num_retries: 1}
                """.formatted(root(limited), root(healthy)));
        // The pick is random: call until the limited one was tried, so at least one call failed over.
        for (int call = 0; call < 20 && limited.requests() == 0; call++) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("gem", "hi"));
            assertThat(response.statusCode()).as(response.body() + response.headers().map()).isEqualTo(200);
            assertThat(json(response.body()).at("/choices/0/message/content").asText()).startsWith("[healthy]");
        }
        assertThat(limited.requests()).isEqualTo(1);
    }

    @Test
    void aBlockedPromptFallsBackToTheContentPolicyFallback() throws IOException {
        MockUpstream strict = gemini("strict", MockMode.POLICY);
        MockUpstream lenient = gemini("lenient", MockMode.OK);
        TestGateway gateway = gateway("""
                model_list:
                  - model_name: gem
                    litellm_params: {model: gemini/gemini-2.0-flash, api_base: %s, api_key: mock-key}
                  - model_name: backup
                    litellm_params: {model: gemini/gemini-2.5-pro, api_base: %s, api_key: mock-key}
                router_settings:
                  content_policy_fallbacks: [{"gem": ["backup"]}]
                """.formatted(root(strict), root(lenient)));
        HttpResponse<String> whole = gateway.post("/v1/chat/completions", Chat.body("gem", "something forbidden"));
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(json(whole.body()).at("/choices/0/message/content").asText()).startsWith("[lenient]");
        HttpResponse<String> stream = gateway.post("/v1/chat/completions", Chat.stream("gem", "something forbidden"));
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.body()).contains("[lenient]").doesNotContain("[strict]");
        assertThat(strict.requests()).isEqualTo(2);
    }

    @Test
    void aBlockedPromptWithNoFallbackIsAContentPolicyError() throws IOException {
        MockUpstream strict = gemini("strict", MockMode.POLICY);
        TestGateway gateway = single(strict, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("gem", "something forbidden"));
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("content_policy_violation");
        assertThat(error.get("message").asText()).contains("blockReason SAFETY");
    }

    @Test
    void googlesErrorsReachTheCallerInOpenAisShape() throws IOException {
        MockUpstream mock = gemini("gem", MockMode.CONTEXT);
        TestGateway gateway = single(mock, "");
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("gem", "x".repeat(3000)));
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response.body()).get("error");
        assertThat(error.get("message").asText()).contains("exceeds the maximum number of tokens allowed");
        assertThat(error.get("code").asText()).isEqualTo("context_length_exceeded");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    }
}
