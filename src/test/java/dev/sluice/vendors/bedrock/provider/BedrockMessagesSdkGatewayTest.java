package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUnion;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
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
 * Anthropic's own Java SDK against the gateway's {@code /v1/messages} over a group of Claude on
 * Bedrock, over real sockets to the Bedrock mock: the caller's own body reaches InvokeModel
 * (whole) and InvokeModelWithResponseStream (streamed), signed, and the answers come back as
 * Anthropic's; an OpenAI chat caller of the same group still goes through Converse.
 */
class BedrockMessagesSdkGatewayTest {
    private static final String GROUP = "claude-sonnet-4-5";
    private static final String SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0";

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private MockUpstream bedrock(MockMode mode) {
        MockUpstream mock = MockUpstream.start(MockOptions.defaults("bedrock", mode).withApi(MockApi.BEDROCK).withApiKey("AKIDMOCK"));
        open.add(mock);
        return mock;
    }

    private TestGateway gateway(MockUpstream mock) {
        TestGateway gateway = TestGateway.start("model_list:\n"
                + BedrockGatewayTest.deployment(GROUP, SONNET, "http://127.0.0.1:" + mock.port(), "bedrock-claude-1")
                + "router_settings: {num_retries: 0}\n");
        open.add(gateway);
        return gateway;
    }

    /** The SDK adds {@code /v1/messages} itself, so it is given the gateway's root. */
    private static AnthropicClient client(TestGateway gateway) {
        return AnthropicOkHttpClient.builder().baseUrl(gateway.baseUrl().replaceFirst("/v1$", "")).apiKey("anything")
                .maxRetries(0).build();
    }

    private static MessageCreateParams ask(String text) {
        return MessageCreateParams.builder().model(GROUP).maxTokens(256).system("be brief").addUserMessage(text).build();
    }

    private static Message accumulate(AnthropicClient client, MessageCreateParams params, List<RawMessageStreamEvent> seen) {
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params)) {
            stream.stream().forEach(event -> {
                seen.add(event);
                accumulator.accumulate(event);
            });
        }
        return accumulator.message();
    }

    @Test
    void theCallersOwnBodyReachesInvokeModelSignedAndTheAnswerIsAnthropics() {
        MockUpstream mock = bedrock(MockMode.OK);
        MessageCreateParams params = MessageCreateParams.builder().model(GROUP).maxTokens(256)
                .systemOfTextBlockParams(List.of(TextBlockParam.builder().text("be brief")
                        .cacheControl(CacheControlEphemeral.builder().build()).build()))
                .addUserMessage("hello there")
                .putAdditionalBodyProperty("top_k", JsonValue.from(5))
                .putAdditionalHeader("anthropic-beta", "context-1m-2025-08-07")
                .build();

        Message message = client(gateway(mock)).messages().create(params);

        assertThat(message.content()).hasSize(1);
        assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[bedrock] you said: hello there");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().cacheReadInputTokens()).as("the mock reads half the prompt from the cache").hasValueSatisfying(
                read -> assertThat(read).isPositive());
        JsonNode sent = mock.receivedBodies().getFirst();
        assertThat(sent.path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(sent.has("model")).isFalse();
        assertThat(sent.has("stream")).isFalse();
        assertThat(sent.path("top_k").asInt()).isEqualTo(5);
        assertThat(sent.path("max_tokens").asInt()).isEqualTo(256);
        assertThat(sent.at("/system/0/cache_control/type").asText()).isEqualTo("ephemeral");
        assertThat(sent.path("anthropic_beta").toString()).isEqualTo("[\"context-1m-2025-08-07\"]");
        Map<String, String> headers = mock.receivedHeaders().getFirst();
        assertThat(headers.get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDMOCK/");
        assertThat(headers).doesNotContainKey("anthropic-beta");
    }

    @Test
    void aStreamFromInvokeWithResponseStreamAccumulatesIntoTheAnswer() {
        MockUpstream mock = bedrock(MockMode.OK);
        List<RawMessageStreamEvent> seen = new ArrayList<>();

        Message message = accumulate(client(gateway(mock)), ask("stream me a few words"), seen);

        assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[bedrock] you said: stream me a few words");
        assertThat(message.stopReason()).contains(StopReason.END_TURN);
        assertThat(message.usage().inputTokens()).isPositive();
        assertThat(message.usage().outputTokens()).isPositive();
        assertThat(seen.getFirst().isMessageStart()).isTrue();
        assertThat(seen.stream().filter(RawMessageStreamEvent::isContentBlockDelta).count()).isGreaterThan(1);
        assertThat(seen.getLast().isMessageStop()).isTrue();
        JsonNode sent = mock.receivedBodies().getFirst();
        assertThat(sent.has("stream")).as("the action says it streams").isFalse();
        assertThat(sent.path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
    }

    @Test
    void aToolCallMakesTheRoundTripWholeAndStreamed() {
        MockUpstream mock = bedrock(MockMode.OK);
        AnthropicClient client = client(gateway(mock));
        Tool weather = Tool.builder().name("get_weather").description("The weather in a city")
                .inputSchema(Tool.InputSchema.builder().properties(JsonValue.from(Map.of("text", Map.of("type", "string")))).build())
                .build();
        for (boolean streamed : List.of(false, true)) {
            String as = streamed ? "streamed" : "whole";
            MessageCreateParams first = MessageCreateParams.builder().model(GROUP).maxTokens(256)
                    .addUserMessage("weather in Paris?").addTool(ToolUnion.ofTool(weather)).build();

            Message asked = streamed ? accumulate(client, first, new ArrayList<>()) : client.messages().create(first);
            ToolUseBlock call = asked.content().getFirst().toolUse().orElseThrow();
            assertThat(asked.stopReason()).as(as).contains(StopReason.TOOL_USE);
            assertThat(call.name()).as(as).isEqualTo("get_weather");
            assertThat(call._input().toString()).as(as).contains("weather in Paris?");

            MessageCreateParams second = first.toBuilder().addMessage(asked)
                    .addUserMessageOfContentBlockParams(List.of(ContentBlockParam.ofToolResult(
                            ToolResultBlockParam.builder().toolUseId(call.id()).content("sunny").build())))
                    .build();
            Message answered = streamed ? accumulate(client, second, new ArrayList<>()) : client.messages().create(second);

            assertThat(answered.content().getFirst().text().orElseThrow().text()).as(as).isEqualTo("[bedrock] the tool said: sunny");
            JsonNode toolTurn = mock.receivedBodies().getLast().path("messages");
            assertThat(toolTurn.get(1).at("/content/0/type").asText()).as(as).isEqualTo("tool_use");
            assertThat(toolTurn.get(2).at("/content/0/tool_use_id").asText()).as(as).isEqualTo(call.id());
        }
    }

    @Test
    void anOpenAiChatCallerOfTheSameGroupStillGoesThroughConverse() throws Exception {
        MockUpstream mock = bedrock(MockMode.OK);
        HttpResponse<String> response = gateway(mock).post("/v1/chat/completions",
                "{\"model\":\"" + GROUP + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hello converse\"}],\"max_tokens\":20}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode answer = Json.parse(response.body().getBytes());
        assertThat(answer.path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.at("/choices/0/message/content").asText()).isEqualTo("[bedrock] you said: hello converse");
        JsonNode sent = mock.receivedBodies().getFirst();
        assertThat(sent.has("anthropic_version")).isFalse();
        assertThat(sent.at("/inferenceConfig/maxTokens").asInt()).as("Converse's shape").isEqualTo(20);
        assertThat(sent.at("/messages/0/content/0/text").asText()).isEqualTo("hello converse");
    }

    @Test
    void bedrocksThrottlingReadsAsAnthropicsRateLimitWholeOrStreamed() {
        MockUpstream mock = bedrock(MockMode.RATELIMIT);
        AnthropicClient client = client(gateway(mock));

        assertThatThrownBy(() -> client.messages().create(ask("hi")))
                .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(429);
                    assertThat(e.getMessage()).contains("rate_limit_error");
                });
        assertThatThrownBy(() -> accumulate(client, ask("hi"), new ArrayList<>()))
                .isInstanceOfSatisfying(AnthropicServiceException.class, e -> assertThat(e.statusCode()).isEqualTo(429));
        assertThat(mock.receivedBodies()).hasSize(2);
    }
}
