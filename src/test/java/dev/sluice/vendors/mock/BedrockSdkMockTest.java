package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.vendors.bedrock.mock.BedrockMockReplies;
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
import software.amazon.awssdk.core.document.Document;
import software.amazon.awssdk.http.Protocol;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.AnyToolChoice;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.InternalServerException;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelResponse;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.ResourceNotFoundException;
import software.amazon.awssdk.services.bedrockruntime.model.StopReason;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;
import software.amazon.awssdk.services.bedrockruntime.model.Tool;
import software.amazon.awssdk.services.bedrockruntime.model.ToolChoice;
import software.amazon.awssdk.services.bedrockruntime.model.ToolConfiguration;
import software.amazon.awssdk.services.bedrockruntime.model.ToolInputSchema;
import software.amazon.awssdk.services.bedrockruntime.model.ToolSpecification;
import software.amazon.awssdk.services.bedrockruntime.model.ValidationException;

/**
 * AWS's own Bedrock Runtime SDK against the Bedrock mock: it reads the mock's answers, its event
 * stream and its embeddings, and raises its errors as its typed exceptions, which shows the mock
 * speaks Bedrock's real protocol, the event-stream framing and its checksums included.
 */
class BedrockSdkMockTest {
    private static final String CLAUDE = "us.anthropic.claude-3-5-sonnet-20241022-v2:0";

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

    private BedrockRuntimeClient client(MockUpstream mock, String accessKeyId) {
        BedrockRuntimeClient client = BedrockRuntimeClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + mock.port()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, "mock-secret")))
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
                // The SDK would speak HTTP/2 (which Bedrock also serves); ConverseStream works over HTTP/1.1 too,
                // the only protocol the mock speaks, so a cut there drops a real TCP connection.
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().protocol(Protocol.HTTP1_1))
                .build();
        clients.add(client);
        return client;
    }

    private static Message user(String text) {
        return Message.builder().role(ConversationRole.USER).content(ContentBlock.fromText(text)).build();
    }

    @Test
    void converseIsAnsweredAndReadByTheSdk() {
        MockUpstream mock = mock(MockMode.OK);
        ConverseResponse response = client(mock, "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("hello there")));

        assertThat(response.output().message().content().get(0).text()).isEqualTo("[bedrock] you said: hello there");
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(response.usage().inputTokens()).isPositive();
        assertThat(response.usage().totalTokens()).isEqualTo(response.usage().inputTokens() + response.usage().outputTokens());
        assertThat(mock.receivedHeaders().get(0).get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDMOCK/");
    }

    @Test
    void converseStreamIsReadEventByEventThroughTheSdksEventStreamDecoder() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        StringBuilder text = new StringBuilder();
        List<String> stops = new ArrayList<>();
        List<Integer> totals = new ArrayList<>();
        ConverseStreamResponseHandler handler = ConverseStreamResponseHandler.builder()
                .subscriber(ConverseStreamResponseHandler.Visitor.builder()
                        .onContentBlockDelta(delta -> text.append(delta.delta().text()))
                        .onMessageStop(stop -> stops.add(stop.stopReasonAsString()))
                        .onMetadata(metadata -> totals.add(metadata.usage().totalTokens()))
                        .build())
                .build();

        asyncClient(mock).converseStream(b -> b.modelId(CLAUDE).messages(user("stream this please")), handler)
                .get(10, TimeUnit.SECONDS);

        assertThat(text.toString()).isEqualTo("[bedrock] you said: stream this please");
        assertThat(stops).containsExactly("end_turn");
        assertThat(totals).hasSize(1).allSatisfy(total -> assertThat(total).isPositive());
    }

    @Test
    void aForcedToolIsCalledWithItsInput() {
        MockUpstream mock = mock(MockMode.OK);
        ToolConfiguration tools = ToolConfiguration.builder()
                .tools(Tool.fromToolSpec(ToolSpecification.builder().name("weather")
                        .inputSchema(ToolInputSchema.fromJson(Document.mapBuilder().putString("type", "object").build()))
                        .build()))
                .toolChoice(ToolChoice.fromAny(AnyToolChoice.builder().build()))
                .build();

        ConverseResponse response = client(mock, "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("Oslo")).toolConfig(tools));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.output().message().content().get(0).toolUse().name()).isEqualTo("weather");
        assertThat(response.output().message().content().get(0).toolUse().input().asMap().get("said").asString()).isEqualTo("Oslo");
    }

    @Test
    void invokeModelAnswersTitanAndCohereEmbeddings() {
        MockUpstream mock = mock(MockMode.OK);
        BedrockRuntimeClient client = client(mock, "AKIDMOCK");

        InvokeModelResponse titan = client.invokeModel(b -> b.modelId("amazon.titan-embed-text-v2:0").contentType("application/json")
                .body(SdkBytes.fromUtf8String("{\"inputText\":\"embed me\"}")));
        InvokeModelResponse cohere = client.invokeModel(b -> b.modelId("cohere.embed-english-v3").contentType("application/json")
                .body(SdkBytes.fromUtf8String("{\"texts\":[\"a\",\"b\"],\"input_type\":\"search_document\"}")));

        assertThat(titan.body().asString(StandardCharsets.UTF_8)).contains("\"embedding\":[").contains("\"inputTextTokenCount\"");
        assertThat(cohere.body().asString(StandardCharsets.UTF_8)).contains("\"embeddings\":[[").contains("\"texts\":[\"a\",\"b\"]");
    }

    @Test
    void theMocksErrorsAreTheSdksTypedExceptions() {
        assertThatThrownBy(() -> client(mock(MockMode.RATELIMIT), "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("x"))))
                .isInstanceOf(ThrottlingException.class);
        assertThatThrownBy(() -> client(mock(MockMode.FAIL), "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("x"))))
                .isInstanceOf(InternalServerException.class);
        assertThatThrownBy(() -> client(mock(MockMode.NOTFOUND), "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("x"))))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> client(mock(MockMode.CONTEXT), "AKIDMOCK").converse(b -> b.modelId(CLAUDE)
                .messages(user("y".repeat(MockOptions.DEFAULT_MAX_CHARS + 1)))))
                .isInstanceOfSatisfying(ValidationException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).contains("Input is too long for requested model."));
        assertThatThrownBy(() -> client(mock(MockMode.AUTH), "AKIDWRONG").converse(b -> b.modelId(CLAUDE).messages(user("x"))))
                .isInstanceOfSatisfying(BedrockRuntimeException.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException"));
    }

    @Test
    void theRightAccessKeyPassesModeAuth() {
        ConverseResponse response = client(mock(MockMode.AUTH), "AKIDMOCK").converse(b -> b.modelId(CLAUDE).messages(user("x")));
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
    }

    @Test
    void aStreamRefusedBeforeItStartsIsTheSdksTypedException() {
        ConverseStreamResponseHandler handler = ConverseStreamResponseHandler.builder()
                .subscriber(ConverseStreamResponseHandler.Visitor.builder().build()).build();
        assertThatThrownBy(() -> asyncClient(mock(MockMode.RATELIMIT))
                .converseStream(b -> b.modelId(CLAUDE).messages(user("x")), handler).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ThrottlingException.class);
    }

    @Test
    void aPolicyBlockIsAGuardrailStop() {
        ConverseResponse response = client(mock(MockMode.POLICY), "AKIDMOCK").converse(b -> b.modelId(CLAUDE)
                .messages(user("something forbidden")));
        assertThat(response.stopReason()).isEqualTo(StopReason.GUARDRAIL_INTERVENED);
        assertThat(response.output().message().content().get(0).text()).isEqualTo(BedrockMockReplies.BLOCKED_TEXT);
    }

    @Test
    void aCallWithoutASignatureIsRefusedAsAwsRefusesIt() throws Exception {
        MockUpstream mock = mock(MockMode.OK);
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + "/model/" + CLAUDE + "/converse"))
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"messages\":[]}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("x-amzn-ErrorType")).hasValueSatisfying(
                type -> assertThat(type).startsWith("MissingAuthenticationTokenException:"));
        assertThat(response.body()).contains("Missing Authentication Token");
    }
}
