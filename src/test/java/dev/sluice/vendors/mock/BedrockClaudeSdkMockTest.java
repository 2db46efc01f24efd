package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;
import software.amazon.awssdk.services.bedrockruntime.model.ValidationException;

/**
 * AWS's own Bedrock Runtime SDK calling a Claude model on the Bedrock mock through InvokeModel
 * and InvokeModelWithResponseStream with a Messages API body: the SDK reads the answer and the
 * {@code chunk} events, whose bytes are Anthropic's stream events.
 */
class BedrockClaudeSdkMockTest {
    private static final String CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String BODY = """
            {"anthropic_version":"bedrock-2023-05-31","max_tokens":100,
             "messages":[{"role":"user","content":"hello claude"}]%s}""";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();

    private final List<AutoCloseable> clients = new ArrayList<>();

    @AfterEach
    void closeClients() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
    }

    private MockUpstream mock(MockMode mode) {
        return mocks.start(MockOptions.defaults("bedrock", mode).withApi(MockApi.BEDROCK).withApiKey("AKIDMOCK"));
    }

    private BedrockRuntimeClient client(MockUpstream mock) {
        BedrockRuntimeClient client = BedrockRuntimeClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + mock.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDMOCK", "mock-secret")))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()).apiCallTimeout(Duration.ofSeconds(10)))
                .build();
        clients.add(client);
        return client;
    }

    private BedrockRuntimeAsyncClient asyncClient(MockUpstream mock) {
        BedrockRuntimeAsyncClient client = BedrockRuntimeAsyncClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + mock.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDMOCK", "mock-secret")))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().protocol(Protocol.HTTP1_1))
                .build();
        clients.add(client);
        return client;
    }

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    private static JsonNode event(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
            throw new AssertionError("a chunk's bytes are not JSON: " + text, notJson);
        }
    }

    @Test
    void invokeModelAnswersAnAnthropicMessage() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        String answer = client(mock).invokeModel(b -> b.modelId(CLAUDE).contentType("application/json")
                .body(SdkBytes.fromUtf8String(BODY.formatted("")))).body().asString(StandardCharsets.UTF_8);

        JsonNode message = json(answer);
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("model").asText()).isEqualTo(CLAUDE);
        assertThat(message.at("/content/0/text").asText()).isEqualTo("[bedrock] you said: hello claude");
        assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(message.at("/usage/input_tokens").asInt()).isPositive();
    }

    @Test
    void givenToolsTheModelCallsOne() throws Exception {
        String tools = ",\"tools\":[{\"name\":\"lookup\",\"input_schema\":{\"type\":\"object\"}}]";
        JsonNode message = json(client(mock(MockMode.OK)).invokeModel(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String(BODY.formatted(tools)))).body().asString(StandardCharsets.UTF_8));

        assertThat(message.at("/content/0/type").asText()).isEqualTo("tool_use");
        assertThat(message.at("/content/0/name").asText()).isEqualTo("lookup");
        assertThat(message.path("stop_reason").asText()).isEqualTo("tool_use");
    }

    @Test
    void theStreamsChunksCarryAnthropicsEventsInOrder() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        List<JsonNode> events = new ArrayList<>();
        InvokeModelWithResponseStreamResponseHandler handler = InvokeModelWithResponseStreamResponseHandler.builder()
                .subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor.builder()
                        .onChunk(chunk -> events.add(event(chunk.bytes().asUtf8String())))
                        .build())
                .build();

        asyncClient(mock).invokeModelWithResponseStream(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String(BODY.formatted(""))), handler).get(10, TimeUnit.SECONDS);

        List<String> types = events.stream().map(event -> event.path("type").asText()).toList();
        assertThat(types.getFirst()).isEqualTo("message_start");
        assertThat(types.subList(types.size() - 2, types.size())).containsExactly("message_delta", "message_stop");
        StringBuilder text = new StringBuilder();
        events.stream().filter(event -> event.at("/delta/type").asText().equals("text_delta"))
                .forEach(event -> text.append(event.at("/delta/text").asText()));
        assertThat(text.toString()).isEqualTo("[bedrock] you said: hello claude");
        assertThat(events.getLast().path("amazon-bedrock-invocationMetrics").path("outputTokenCount").asInt()).isPositive();
    }

    @Test
    void aBodyBedrockWouldRefuseIsAValidationExceptionAndThrottlingIsTyped() {
        BedrockRuntimeClient client = client(mock(MockMode.OK));
        assertThatThrownBy(() -> client.invokeModel(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String(BODY.formatted(",\"model\":\"claude\"")))))
                .isInstanceOfSatisfying(ValidationException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).contains("extraneous key [model]"));
        assertThatThrownBy(() -> client.invokeModel(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String("{\"max_tokens\":10,\"messages\":[]}"))))
                .isInstanceOfSatisfying(ValidationException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).contains("required key [anthropic_version]"));

        assertThatThrownBy(() -> client(mock(MockMode.RATELIMIT)).invokeModel(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String(BODY.formatted("")))))
                .isInstanceOf(ThrottlingException.class);
        InvokeModelWithResponseStreamResponseHandler handler = InvokeModelWithResponseStreamResponseHandler.builder()
                .subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor.builder().build()).build();
        assertThatThrownBy(() -> asyncClient(mock(MockMode.RATELIMIT)).invokeModelWithResponseStream(b -> b.modelId(CLAUDE)
                .body(SdkBytes.fromUtf8String(BODY.formatted(""))), handler).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ThrottlingException.class);
    }
}
