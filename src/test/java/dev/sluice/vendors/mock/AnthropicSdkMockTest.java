package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.NotFoundException;
import com.anthropic.errors.OverloadedException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.ErrorType;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUnion;
import com.anthropic.models.messages.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's own Java SDK against {@code sluice mock --api anthropic}: whole answers, streams
 * read by the SDK's accumulator, a tool call round trip, and every failing mode seen as the
 * SDK's typed exception. The SDK parses strictly, so this shows the mock speaks the real protocol.
 */
class AnthropicSdkMockTest {

    private static MockUpstream start(MockMode mode) {
        return MockUpstream.start(MockOptions.defaults("claude", mode).withApi(MockApi.ANTHROPIC).withMaxChars(40));
    }

    /** The SDK adds {@code /v1/messages} itself, so it is given the mock's root. */
    private static AnthropicClient client(MockUpstream mock, String key) {
        String root = mock.baseUrl().substring(0, mock.baseUrl().length() - "/v1".length());
        return AnthropicOkHttpClient.builder().baseUrl(root).apiKey(key).maxRetries(0).build();
    }

    private static MessageCreateParams ask(String text) {
        return MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(256).addUserMessage(text).build();
    }

    @Test
    void wholeAnswerIsReadWithItsUsage() {
        try (MockUpstream mock = start(MockMode.OK)) {
            Message message = client(mock, "k").messages().create(ask("hello there"));

            assertThat(message.content()).hasSize(1);
            assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[claude] you said: hello there");
            assertThat(message.stopReason()).contains(StopReason.END_TURN);
            assertThat(message.model().asString()).isEqualTo("claude-sonnet-4-5");
            assertThat(message.usage().inputTokens()).isEqualTo(3);
            assertThat(message.usage().outputTokens()).isPositive();
            assertThat(message.usage().cacheReadInputTokens()).contains(0L);
            assertThat(mock.receivedHeaders().getFirst()).containsKey("anthropic-version");
        }
    }

    @Test
    void streamIsAccumulatedIntoTheSameAnswer() {
        try (MockUpstream mock = start(MockMode.OK)) {
            MessageAccumulator accumulator = MessageAccumulator.create();
            List<String> types = new ArrayList<>();
            try (StreamResponse<RawMessageStreamEvent> stream = client(mock, "k").messages().createStreaming(ask("stream me a few words"))) {
                stream.stream().forEach(event -> {
                    accumulator.accumulate(event);
                    types.add(event.isMessageStart() ? "message_start" : event.isContentBlockStart() ? "content_block_start"
                            : event.isContentBlockDelta() ? "delta" : event.isContentBlockStop() ? "content_block_stop"
                            : event.isMessageDelta() ? "message_delta" : "message_stop");
                });
            }
            Message message = accumulator.message();

            assertThat(message.content().getFirst().text().orElseThrow().text()).isEqualTo("[claude] you said: stream me a few words");
            assertThat(message.stopReason()).contains(StopReason.END_TURN);
            assertThat(message.usage().outputTokens()).isPositive();
            assertThat(types.getFirst()).isEqualTo("message_start");
            assertThat(types.get(1)).isEqualTo("content_block_start");
            assertThat(types.subList(types.size() - 3, types.size())).containsExactly("content_block_stop", "message_delta", "message_stop");
        }
    }

    @Test
    void toolIsCalledAndItsResultAnswered() {
        try (MockUpstream mock = start(MockMode.OK)) {
            AnthropicClient client = client(mock, "k");
            Tool weather = Tool.builder().name("get_weather").description("The weather in a city")
                    .inputSchema(Tool.InputSchema.builder()
                            .properties(JsonValue.from(Map.of("text", Map.of("type", "string"))))
                            .build())
                    .build();
            MessageCreateParams first = MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(256)
                    .addUserMessage("weather in Paris?").addTool(ToolUnion.ofTool(weather)).build();

            Message asked = client.messages().create(first);
            ToolUseBlock call = asked.content().getFirst().toolUse().orElseThrow();
            assertThat(asked.stopReason()).contains(StopReason.TOOL_USE);
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(call._input().toString()).contains("weather in Paris?");

            MessageCreateParams second = first.toBuilder().addMessage(asked)
                    .addUserMessageOfContentBlockParams(List.of(ContentBlockParam.ofToolResult(
                            ToolResultBlockParam.builder().toolUseId(call.id()).content("sunny").build())))
                    .build();
            Message answered = client.messages().create(second);

            assertThat(answered.content().getFirst().text().orElseThrow().text()).isEqualTo("[claude] the tool said: sunny");
            assertThat(mock.receivedBodies().getLast().path("messages").get(2).path("content").get(0).path("tool_use_id").asText())
                    .isEqualTo(call.id());
        }
    }

    @Test
    void failingModesAreTheSdksTypedExceptions() {
        assertFailure(MockMode.FAIL, "hi", OverloadedException.class, 529, ErrorType.OVERLOADED_ERROR);
        assertFailure(MockMode.AUTH, "hi", UnauthorizedException.class, 401, ErrorType.AUTHENTICATION_ERROR);
        assertFailure(MockMode.NOTFOUND, "hi", NotFoundException.class, 404, ErrorType.NOT_FOUND_ERROR);
        assertFailure(MockMode.REJECT, "hi", BadRequestException.class, 400, ErrorType.INVALID_REQUEST_ERROR);
        AnthropicServiceException tooLong = assertFailure(MockMode.CONTEXT, "x".repeat(200), BadRequestException.class, 400,
                ErrorType.INVALID_REQUEST_ERROR);
        assertThat(tooLong.apiMessage()).hasValueSatisfying(m -> assertThat(m).contains("prompt is too long: 50 tokens > 10 maximum"));
        AnthropicServiceException limited = assertFailure(MockMode.RATELIMIT, "hi", RateLimitException.class, 429,
                ErrorType.RATE_LIMIT_ERROR);
        assertThat(limited.headers().values("retry-after")).containsExactly("1");
    }

    @Test
    void authPassesWithTheMocksKey() {
        try (MockUpstream mock = start(MockMode.AUTH)) {
            assertThat(client(mock, MockOptions.DEFAULT_API_KEY).messages().create(ask("hi")).stopReason()).contains(StopReason.END_TURN);
        }
    }

    @Test
    void policyIsARefusal() {
        try (MockUpstream mock = start(MockMode.POLICY)) {
            Message refused = client(mock, "k").messages().create(ask("something forbidden"));

            assertThat(refused.stopReason()).contains(StopReason.REFUSAL);
            assertThat(refused.content()).isEmpty();
            assertThat(client(mock, "k").messages().create(ask("something fine")).stopReason()).contains(StopReason.END_TURN);
        }
    }

    @Test
    void aCutStreamFailsInTheSdk() {
        try (MockUpstream mock = start(MockMode.CUT)) {
            assertThatThrownBy(() -> {
                try (StreamResponse<RawMessageStreamEvent> stream = client(mock, "k").messages().createStreaming(ask("hi"))) {
                    stream.stream().forEach(event -> { });
                }
            }).isInstanceOf(RuntimeException.class);
        }
    }

    private static AnthropicServiceException assertFailure(MockMode mode, String prompt, Class<? extends AnthropicServiceException> type,
            int status, ErrorType errorType) {
        try (MockUpstream mock = start(mode)) {
            Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> client(mock, "wrong-key").messages().create(ask(prompt)));
            assertThat(thrown).as(mode.cliName()).isInstanceOf(type);
            AnthropicServiceException error = (AnthropicServiceException) thrown;
            assertThat(error.statusCode()).isEqualTo(status);
            assertThat(error.errorType()).contains(errorType);
            assertThat(error.apiMessage()).hasValueSatisfying(m -> assertThat(m).startsWith("[claude] "));
            return error;
        }
    }
}
