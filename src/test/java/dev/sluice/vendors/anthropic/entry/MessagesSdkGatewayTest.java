package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.NotFoundException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageTokensCount;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's own Java SDK against the gateway's {@code /v1/messages}, over a group of
 * OpenAI-compatible deployments (translated both ways) and a group of {@code anthropic/}
 * deployments (the caller's body passed through), over real sockets.
 */
class MessagesSdkGatewayTest {
    private static final String ANTHROPIC_KEY = "sk-ant-upstream-0123456789";

    private static MockUpstream openAi(MockMode mode) {
        return MockUpstream.start(MockOptions.defaults("gpt", mode));
    }

    private static MockUpstream anthropic(MockMode mode) {
        return MockUpstream.start(MockOptions.defaults("claude", mode).withApi(MockApi.ANTHROPIC).withApiKey(ANTHROPIC_KEY));
    }

    /** Group {@code claude-sonnet-4-5} on Anthropic, group {@code gpt-chat} on an OpenAI-compatible server; {@code extra} router settings. */
    private static TestGateway gateway(MockUpstream claude, MockUpstream gpt, String extra) {
        return TestGateway.start("""
                model_list:
                  - {model_name: claude-sonnet-4-5, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '%s', api_key: %s}}
                  - {model_name: gpt-chat, litellm_params: {model: openai/gpt-4o, api_base: '%s'}}
                router_settings: {num_retries: 0%s}
                """.formatted(claude.baseUrl(), ANTHROPIC_KEY, gpt.baseUrl(), extra));
    }

    /** The SDK adds {@code /v1/messages} itself, so it is given the gateway's root. */
    private static AnthropicClient client(TestGateway gateway) {
        return AnthropicOkHttpClient.builder().baseUrl(gateway.baseUrl().replaceFirst("/v1$", "")).apiKey("anything")
                .maxRetries(0).build();
    }

    private static MessageCreateParams ask(String group, String text) {
        return MessageCreateParams.builder().model(group).maxTokens(256).system("be brief").addUserMessage(text).build();
    }

    private static List<String> types(List<RawMessageStreamEvent> events) {
        List<String> types = new ArrayList<>();
        for (RawMessageStreamEvent event : events) {
            types.add(event.isMessageStart() ? "message_start" : event.isContentBlockStart() ? "content_block_start"
                    : event.isContentBlockDelta() ? "delta" : event.isContentBlockStop() ? "content_block_stop"
                    : event.isMessageDelta() ? "message_delta" : "message_stop");
        }
        return types;
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
    void anOpenAiGroupAnswersInAnthropicsShape() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            Message message = client(gateway).messages().create(ask("gpt-chat", "hello there"));

            assertThat(message.id()).startsWith("msg_");
            assertThat(message.content()).hasSize(1);
            assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[gpt] you said: hello there");
            assertThat(message.stopReason()).contains(StopReason.END_TURN);
            assertThat(message.usage().inputTokens()).isPositive();
            assertThat(message.usage().outputTokens()).isPositive();
            JsonNode sent = gpt.receivedBodies().getFirst();
            assertThat(sent.path("model").asText()).isEqualTo("gpt-4o");
            assertThat(sent.at("/messages/0/role").asText()).isEqualTo("system");
            assertThat(sent.at("/messages/0/content").asText()).isEqualTo("be brief");
            assertThat(sent.path("max_completion_tokens").asInt()).isEqualTo(256);
            assertThat(claude.receivedBodies()).isEmpty();
        }
    }

    @Test
    void anAnthropicGroupGetsTheCallersBodyUntranslated() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            MessageCreateParams params = ask("claude-sonnet-4-5", "hello there").toBuilder()
                    .putAdditionalBodyProperty("top_k", JsonValue.from(5))
                    .putAdditionalBodyProperty("a_field_from_the_future", JsonValue.from(Map.of("kept", true)))
                    .putAdditionalHeader("anthropic-beta", "prompt-caching-2024-07-31")
                    .build();
            Message message = client(gateway).messages().create(params);

            assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[claude] you said: hello there");
            assertThat(message.usage().cacheReadInputTokens()).contains(0L);
            JsonNode sent = claude.receivedBodies().getFirst();
            assertThat(sent.path("system").asText()).as("the caller's string, not rewritten as blocks").isEqualTo("be brief");
            assertThat(sent.path("top_k").asInt()).isEqualTo(5);
            assertThat(sent.at("/a_field_from_the_future/kept").asBoolean()).isTrue();
            assertThat(sent.path("max_tokens").asInt()).isEqualTo(256);
            assertThat(claude.receivedHeaders().getFirst()).containsEntry("anthropic-beta", "prompt-caching-2024-07-31")
                    .containsEntry("x-api-key", ANTHROPIC_KEY);
        }
    }

    @Test
    void streamsFromBothGroupsAccumulateIntoTheSameAnswer() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            for (String group : List.of("gpt-chat", "claude-sonnet-4-5")) {
                List<RawMessageStreamEvent> seen = new ArrayList<>();
                Message message = accumulate(client(gateway), ask(group, "stream me a few words"), seen);

                String who = group.equals("gpt-chat") ? "gpt" : "claude";
                assertThat(message.content().getFirst().text().orElseThrow().text()).as(group)
                        .isEqualTo("[" + who + "] you said: stream me a few words");
                assertThat(message.stopReason()).as(group).contains(StopReason.END_TURN);
                assertThat(message.usage().outputTokens()).as(group).isPositive();
                List<String> types = types(seen);
                assertThat(types.getFirst()).as(group).isEqualTo("message_start");
                assertThat(types).as(group).contains("content_block_start", "delta");
                assertThat(types.subList(types.size() - 3, types.size())).as(group)
                        .containsExactly("content_block_stop", "message_delta", "message_stop");
            }
        }
    }

    @Test
    void aToolCallMakesTheRoundTripThroughEitherGroupWholeOrStreamed() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            AnthropicClient client = client(gateway);
            Tool weather = Tool.builder().name("get_weather").description("The weather in a city")
                    .inputSchema(Tool.InputSchema.builder()
                            .properties(JsonValue.from(Map.of("text", Map.of("type", "string")))).build())
                    .build();
            for (String group : List.of("claude-sonnet-4-5", "gpt-chat")) {
                for (boolean streamed : List.of(false, true)) {
                    String as = group + (streamed ? " streamed" : " whole");
                    MessageCreateParams first = MessageCreateParams.builder().model(group).maxTokens(256)
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

                    String who = group.equals("gpt-chat") ? "gpt" : "claude";
                    assertThat(answered.content().getFirst().text().orElseThrow().text()).as(as)
                            .isEqualTo("[" + who + "] the tool said: sunny");
                }
            }
            JsonNode toolTurn = gpt.receivedBodies().get(1).path("messages");
            assertThat(toolTurn.get(1).at("/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
            assertThat(toolTurn.get(2).path("role").asText()).isEqualTo("tool");
            assertThat(toolTurn.get(2).path("tool_call_id").asText()).isEqualTo(toolTurn.get(1).at("/tool_calls/0/id").asText());
        }
    }

    @Test
    void tokensAreCountedByAnthropicOrElseByTheGateway() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            AnthropicClient client = client(gateway);
            MessageCountTokensParams.Builder params = MessageCountTokensParams.builder().system("be brief")
                    .addUserMessage("how many tokens is this?");

            MessageTokensCount byAnthropic = client.messages().countTokens(params.model("claude-sonnet-4-5").build());
            MessageTokensCount byGateway = client.messages().countTokens(params.model("gpt-chat").build());

            assertThat(byAnthropic.inputTokens()).as("the mock's count of 32 characters").isEqualTo(8);
            JsonNode asked = claude.receivedBodies().getFirst();
            assertThat(asked.path("model").asText()).isEqualTo("claude-sonnet-4-5");
            assertThat(asked.has("max_tokens")).isFalse();
            assertThat(byGateway.inputTokens()).as("OpenAI's count of two short messages with their framing").isBetween(10L, 20L);
            assertThat(gpt.receivedBodies()).isEmpty();
            assertThat(gateway.post("/v1/messages/count_tokens", """
                    {"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"hi"}]}""").headers()
                    .firstValue("x-sluice-token-count")).contains("deployment");
            assertThatThrownBy(() -> client.messages().countTokens(params.model("no-such-group").build()))
                    .isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    void errorsReadAsAnthropicsTypedErrors() {
        try (MockUpstream claude = anthropic(MockMode.OK); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, "")) {
            AnthropicClient client = client(gateway);

            assertThatThrownBy(() -> client.messages().create(ask("no-such-group", "hi")))
                    .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.getMessage())
                            .contains("not_found_error").contains("no-such-group"));
            assertThat(gateway.post("/v1/messages", """
                    {"model":"gpt-chat","messages":[{"role":"user","content":"hi"}]}""").body())
                    .isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"max_tokens: Field required\"}}");
            assertThatThrownBy(() -> client.messages().create(MessageCreateParams.builder().model("gpt-chat").maxTokens(10)
                    .addUserMessage("hi").putAdditionalBodyProperty("messages", JsonValue.from(List.of(Map.of("role", "robot"))))
                    .build()))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage()).contains("messages[0].role"));
        }
    }

    @Test
    void anUpstreamErrorKeepsItsStatusAndReadsAsAnthropics() {
        try (MockUpstream claude = anthropic(MockMode.FAIL); MockUpstream gpt = openAi(MockMode.RATELIMIT);
                TestGateway gateway = gateway(claude, gpt, "")) {
            AnthropicClient client = client(gateway);

            assertThatThrownBy(() -> client.messages().create(ask("gpt-chat", "hi")))
                    .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(429);
                        assertThat(e.getMessage()).contains("rate_limit_error");
                    });
            assertThatThrownBy(() -> client.messages().create(ask("claude-sonnet-4-5", "hi")))
                    .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
                        assertThat(e.statusCode()).as("the mock's FAIL is Anthropic's overloaded answer").isEqualTo(529);
                        assertThat(e.getMessage()).contains("overloaded_error").contains("Sluice: model group 'claude-sonnet-4-5' failed");
                    });
        }
    }

    @Test
    void aFallbackToAnotherDialectIsAnsweredInAnthropicsShape() {
        try (MockUpstream claude = anthropic(MockMode.FAIL); MockUpstream gpt = openAi(MockMode.OK);
                TestGateway gateway = gateway(claude, gpt, ", fallbacks: [{claude-sonnet-4-5: [gpt-chat]}]")) {
            List<RawMessageStreamEvent> seen = new ArrayList<>();
            Message streamed = accumulate(client(gateway), ask("claude-sonnet-4-5", "hello there"), seen);
            Message whole = client(gateway).messages().create(ask("claude-sonnet-4-5", "hello there"));

            assertThat(streamed.content().getFirst().text().orElseThrow().text()).isEqualTo("[gpt] you said: hello there");
            assertThat(whole.content().getFirst().text().orElseThrow().text()).isEqualTo("[gpt] you said: hello there");
            assertThat(claude.receivedBodies()).hasSize(2);
            assertThat(gpt.receivedBodies()).hasSize(2);
        }
    }
}
