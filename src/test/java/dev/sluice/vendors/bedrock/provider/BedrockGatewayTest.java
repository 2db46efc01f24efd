package dev.sluice.vendors.bedrock.provider;

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
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A gateway in front of the Bedrock mock over real sockets: OpenAI-shaped calls answered from
 * Converse, ConverseStream and InvokeModel, signed calls, and Bedrock's failures routed.
 */
class BedrockGatewayTest {
    static final String SECRET = "bedrock-secret-access-key-0123456789";
    static final String CLAUDE = "us.anthropic.claude-3-5-sonnet-20241022-v2:0";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    static String deployment(String group, String model, String endpoint, String id) {
        return """
                  - model_name: %s
                    litellm_params:
                      model: bedrock/%s
                      aws_bedrock_runtime_endpoint: %s
                      aws_access_key_id: AKIDMOCK
                      aws_secret_access_key: %s
                      aws_region_name: us-east-1
                    model_info: {id: %s}
                """.formatted(group, model, endpoint, SECRET, id);
    }

    private MockUpstream mock(MockOptions options) {
        MockUpstream mock = MockUpstream.start(options.withApi(MockApi.BEDROCK).withApiKey("AKIDMOCK"));
        open.add(mock);
        return mock;
    }

    private MockUpstream mock(MockMode mode) {
        return mock(MockOptions.defaults("bedrock", mode));
    }

    private static String endpoint(MockUpstream mock) {
        return "http://127.0.0.1:" + mock.port();
    }

    private TestGateway gateway(String deployments) {
        TestGateway gateway = TestGateway.start("model_list:\n" + deployments);
        open.add(gateway);
        return gateway;
    }

    private TestGateway claudeBefore(MockUpstream mock) {
        return gateway(deployment("claude", CLAUDE, endpoint(mock), "bedrock-1"));
    }

    private static JsonNode json(String body) throws Exception {
        return Json.parse(body.getBytes());
    }

    /** The data lines of an SSE body. */
    static List<String> events(String body) {
        return body.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }

    @Test
    void aWholeChatIsAnsweredInOpenAisShapeFromASignedConverseCall() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions",
                "{\"model\":\"claude\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                        + "{\"role\":\"user\",\"content\":\"hello bedrock\"}],\"max_tokens\":20}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode answer = json(response.body());
        assertThat(answer.path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.at("/choices/0/message/content").asText()).isEqualTo("[bedrock] you said: hello bedrock");
        assertThat(answer.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(answer.at("/usage/total_tokens").asLong())
                .isEqualTo(answer.at("/usage/prompt_tokens").asLong() + answer.at("/usage/completion_tokens").asLong())
                .isPositive();
        JsonNode sent = mock.receivedBodies().get(0);
        assertThat(sent.get("system").toString()).isEqualTo("[{\"text\":\"be brief\"}]");
        assertThat(sent.at("/messages/0/content/0/text").asText()).isEqualTo("hello bedrock");
        assertThat(sent.at("/inferenceConfig/maxTokens").asInt()).isEqualTo(20);
        Map<String, String> headers = mock.receivedHeaders().get(0);
        assertThat(headers.get("authorization"))
                .matches("AWS4-HMAC-SHA256 Credential=AKIDMOCK/\\d{8}/us-east-1/bedrock/aws4_request, "
                        + "SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}");
        assertThat(headers.get("x-amz-date")).matches("\\d{8}T\\d{6}Z");
        assertThat(response.body()).doesNotContain(SECRET);
    }

    @Test
    void aStreamIsRelayedAsOpenAiChunksWithUsageWhenAskedFor() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions",
                "{\"model\":\"claude\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"stream to me\"}]}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        List<String> events = events(response.body());
        assertThat(events.get(events.size() - 1)).isEqualTo("[DONE]");
        StringBuilder text = new StringBuilder();
        String finish = null;
        JsonNode usage = null;
        for (String event : events.subList(0, events.size() - 1)) {
            JsonNode chunk = json(event);
            assertThat(chunk.path("object").asText()).isEqualTo("chat.completion.chunk");
            text.append(chunk.at("/choices/0/delta/content").asText(""));
            if (chunk.at("/choices/0/finish_reason").isTextual()) {
                finish = chunk.at("/choices/0/finish_reason").asText();
            }
            if (chunk.path("usage").isObject()) {
                usage = chunk.get("usage");
            }
        }
        assertThat(text.toString()).isEqualTo("[bedrock] you said: stream to me");
        assertThat(finish).isEqualTo("stop");
        assertThat(usage).isNotNull();
        assertThat(usage.path("total_tokens").asLong()).isPositive();
        assertThat(mock.receivedHeaders().get(0).get("authorization")).startsWith("AWS4-HMAC-SHA256 ");
    }

    @Test
    void toolCallsAreAnsweredWholeAndStreamed() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        TestGateway gateway = claudeBefore(mock);
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"parameters\":{\"type\":\"object\"}}}],"
                + "\"tool_choice\":\"required\",\"messages\":[{\"role\":\"user\",\"content\":\"Oslo\"}]";

        JsonNode whole = json(gateway.post("/v1/chat/completions", "{\"model\":\"claude\"," + tools + "}").body());
        String streamed = gateway.post("/v1/chat/completions", "{\"model\":\"claude\",\"stream\":true," + tools + "}").body();

        assertThat(whole.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(whole.at("/choices/0/message/tool_calls/0/function/name").asText()).isEqualTo("weather");
        assertThat(json(whole.at("/choices/0/message/tool_calls/0/function/arguments").asText()).path("said").asText())
                .isEqualTo("Oslo");
        assertThat(mock.receivedBodies().get(0).at("/toolConfig/toolChoice").toString()).isEqualTo("{\"any\":{}}");
        StringBuilder arguments = new StringBuilder();
        String name = null;
        for (String event : events(streamed)) {
            if (event.equals("[DONE]")) {
                continue;
            }
            JsonNode call = json(event).at("/choices/0/delta/tool_calls/0");
            if (call.isObject()) {
                name = call.at("/function/name").isTextual() ? call.at("/function/name").asText() : name;
                arguments.append(call.at("/function/arguments").asText(""));
            }
        }
        assertThat(name).isEqualTo("weather");
        assertThat(json(arguments.toString()).path("said").asText()).isEqualTo("Oslo");
        assertThat(streamed).contains("\"finish_reason\":\"tool_calls\"");
    }

    @Test
    void aResponseFormatIsAnsweredAsContent() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        JsonNode answer = json(claudeBefore(mock).post("/v1/chat/completions", "{\"model\":\"claude\","
                + "\"response_format\":{\"type\":\"json_object\"},\"messages\":[{\"role\":\"user\",\"content\":\"give json\"}]}").body());

        assertThat(json(answer.at("/choices/0/message/content").asText()).path("said").asText()).isEqualTo("give json");
        assertThat(answer.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(answer.at("/choices/0/message").has("tool_calls")).isFalse();
    }

    @Test
    void embeddingsAreAnsweredInOpenAisShape() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        TestGateway gateway = gateway(deployment("titan", "amazon.titan-embed-text-v2:0", endpoint(mock), "titan-1")
                + deployment("cohere", "cohere.embed-english-v3", endpoint(mock), "cohere-1"));

        JsonNode titan = json(gateway.post("/v1/embeddings", "{\"model\":\"titan\",\"input\":\"embed me\"}").body());
        JsonNode cohere = json(gateway.post("/v1/embeddings", "{\"model\":\"cohere\",\"input\":[\"a\",\"b\"]}").body());

        assertThat(titan.path("object").asText()).isEqualTo("list");
        assertThat(titan.at("/data/0/embedding")).hasSize(8);
        assertThat(titan.at("/usage/prompt_tokens").asLong()).isPositive();
        assertThat(cohere.path("data")).hasSize(2);
        assertThat(cohere.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(mock.receivedBodies().get(0).toString()).isEqualTo("{\"inputText\":\"embed me\"}");
        assertThat(mock.receivedBodies().get(1).toString()).isEqualTo("{\"texts\":[\"a\",\"b\"],\"input_type\":\"search_document\"}");
    }

    @Test
    void cohereEmbeddingsAreChargedForTheirCountedPromptThoughBedrockReportsNoCount() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        TestGateway gateway = gateway(deployment("cohere", "cohere.embed-english-v3", endpoint(mock), "cohere-1")
                .replace("aws_region_name: us-east-1\n", "aws_region_name: us-east-1\n      input_cost_per_token: 0.001\n"));

        HttpResponse<String> response = gateway.post("/v1/embeddings",
                "{\"model\":\"cohere\",\"input\":[\"the first text to embed\",\"and a second one\"],\"encoding_format\":\"base64\"}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = json(response.body());
        long prompt = body.at("/usage/prompt_tokens").asLong();
        assertThat(prompt).isPositive();
        double cost = Double.parseDouble(response.headers().firstValue("x-litellm-response-cost").orElseThrow());
        assertThat(cost).isCloseTo(prompt * 0.001, within(1e-9));
        assertThat(EmbeddingAnswersTest.floats(body.at("/data/1/embedding").asText())).hasSize(8);
    }

    @Test
    void aThrottledCallIsRepeatedAfterTheWaitAskedFor() throws Exception {
        MockUpstream mock = mock(MockOptions.defaults("bedrock", MockMode.RATELIMIT).withTimes(1).withRetryAfterSeconds(1));
        long started = System.nanoTime();
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions", Chat.body("claude", "again"),
                "x-litellm-num-retries", "2");
        long tookMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(mock.requests()).isEqualTo(2);
        assertThat(tookMs).isGreaterThanOrEqualTo(900);
    }

    @Test
    void aThrottledDeploymentFailsOverToItsSibling() throws Exception {
        MockUpstream throttled = mock(MockOptions.defaults("throttled", MockMode.RATELIMIT));
        MockUpstream healthy = mock(MockOptions.defaults("healthy", MockMode.OK));
        TestGateway gateway = gateway(deployment("claude", CLAUDE, endpoint(throttled), "b-1")
                + deployment("claude", CLAUDE, endpoint(healthy), "b-2"));

        for (int i = 0; i < 4; i++) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi " + i));
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(json(response.body()).at("/choices/0/message/content").asText()).startsWith("[healthy]");
        }
    }

    @Test
    void bedrocksErrorsReachTheCallerInOpenAisShapeWithTheExceptionAsCode() throws Exception {
        Object[][] cases = {
                {MockMode.NOTFOUND, 404, "ResourceNotFoundException"},
                {MockMode.REJECT, 400, "ValidationException"},
                {MockMode.FAIL, 500, "InternalServerException"},
                {MockMode.RATELIMIT, 429, "ThrottlingException"}};
        for (Object[] expected : cases) {
            MockUpstream mock = mock((MockMode) expected[0]);
            HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions", Chat.body("claude", "hi"),
                    "x-litellm-num-retries", "0");
            assertThat(response.statusCode()).as(expected[0].toString()).isEqualTo(expected[1]);
            JsonNode error = json(response.body()).get("error");
            assertThat(error.path("code").asText()).isEqualTo(expected[2]);
            assertThat(error.path("message").asText()).startsWith("[bedrock] ");
        }
    }

    @Test
    void aPromptTooLongIsAContextWindowRefusal() throws Exception {
        MockUpstream mock = mock(MockOptions.defaults("bedrock", MockMode.CONTEXT).withMaxChars(10));
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions",
                Chat.body("claude", "this prompt is longer than ten characters"), "x-litellm-num-retries", "0");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/message").asText()).contains("Input is too long for requested model.");
        assertThat(json(response.body()).at("/error/code").asText()).isEqualTo("ValidationException");
    }

    @Test
    void aGuardrailStopIsAContentFilterFinish() throws Exception {
        MockUpstream mock = mock(MockMode.POLICY);
        JsonNode answer = json(claudeBefore(mock).post("/v1/chat/completions", Chat.body("claude", "a forbidden thing")).body());
        assertThat(answer.at("/choices/0/finish_reason").asText()).isEqualTo("content_filter");
    }

    @Test
    void parametersBedrockCannotTakeAreRefusedUnlessDropParamsIsSet() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        TestGateway gateway = claudeBefore(mock);

        HttpResponse<String> refused = gateway.post("/v1/chat/completions",
                "{\"model\":\"claude\",\"seed\":7,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        HttpResponse<String> dropped = gateway.post("/v1/chat/completions",
                "{\"model\":\"claude\",\"seed\":7,\"drop_params\":true,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).at("/error/message").asText()).contains("'seed'");
        assertThat(dropped.statusCode()).isEqualTo(200);
        assertThat(dropped.headers().firstValue("x-sluice-dropped-params")).hasValue("seed");
        assertThat(mock.receivedBodies()).hasSize(1);
        assertThat(mock.receivedBodies().get(0).toString()).doesNotContain("seed");
    }

    @Test
    void anImageUrlIsRefusedWithA400() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions", "{\"model\":\"claude\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://example.com/a.png\"}}]}]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).at("/error/message").asText()).contains("data URL");
        assertThat(mock.requests()).isZero();
    }

    @Test
    void aStreamCutAfterTwoFramesEndsWithStreamInterrupted() throws Exception {
        MockUpstream mock = mock(MockMode.CUT);
        HttpResponse<String> response = claudeBefore(mock).post("/v1/chat/completions", Chat.stream("claude", "cut me off"));

        List<String> events = events(response.body());
        assertThat(events).isNotEmpty().doesNotContain("[DONE]");
        assertThat(json(events.get(events.size() - 1)).at("/error/code").asText()).isEqualTo("stream_interrupted");
    }
}
