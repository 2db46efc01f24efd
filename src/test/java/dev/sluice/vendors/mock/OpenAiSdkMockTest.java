package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionNamedToolChoice;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's own Java SDK against the OpenAI mock's tool calls: a whole answer, a stream read by
 * the SDK's accumulator, a named tool, and a round trip answering the tool's result. The SDK
 * parses strictly, so this shows the mock's tool calls are OpenAI's shape.
 */
class OpenAiSdkMockTest {

    private static final String ASKED = "What is the weather in Paris this weekend, please?";
    private static final String ARGUMENTS = "{\"text\":\"What is the weather in Paris this weeken\"}";

    private MockUpstream mock;
    private OpenAIClient client;

    @BeforeEach
    void start() {
        mock = MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
        client = OpenAIOkHttpClient.builder().baseUrl(mock.baseUrl()).apiKey("k").maxRetries(0).build();
    }

    @AfterEach
    void stop() {
        client.close();
        mock.close();
    }

    private static FunctionDefinition function(String name) {
        return FunctionDefinition.builder().name(name).parameters(FunctionParameters.builder()
                .putAdditionalProperty("type", JsonValue.from("object"))
                .putAdditionalProperty("properties", JsonValue.from(Map.of("text", Map.of("type", "string"))))
                .build()).build();
    }

    private static ChatCompletionCreateParams.Builder askWithTools() {
        return ChatCompletionCreateParams.builder().model("gpt-4o").addUserMessage(ASKED)
                .addFunctionTool(function("get_weather")).addFunctionTool(function("get_time"));
    }

    private static ChatCompletionMessageFunctionToolCall onlyToolCall(ChatCompletion completion) {
        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        ChatCompletionMessage message = completion.choices().getFirst().message();
        assertThat(message.content()).isEmpty();
        assertThat(message.toolCalls()).hasValueSatisfying(calls -> assertThat(calls).hasSize(1));
        return message.toolCalls().orElseThrow().getFirst().asFunction();
    }

    @Test
    void aWholeAnswerCallsTheFirstTool() {
        ChatCompletion completion = client.chat().completions().create(askWithTools().build());

        ChatCompletionMessageFunctionToolCall call = onlyToolCall(completion);
        assertThat(call.id()).isEqualTo("call_mock_1");
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(call.function().arguments()).isEqualTo(ARGUMENTS);
        assertThat(completion.usage()).hasValueSatisfying(usage -> assertThat(usage.completionTokens()).isEqualTo(13));
    }

    @Test
    void aStreamAccumulatesIntoTheSameToolCall() {
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        ChatCompletionCreateParams params = askWithTools()
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(accumulator::accumulate);
        }

        ChatCompletion completion = accumulator.chatCompletion();
        ChatCompletionMessageFunctionToolCall call = onlyToolCall(completion);
        assertThat(call.id()).isEqualTo("call_mock_1");
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(call.function().arguments()).isEqualTo(ARGUMENTS);
        assertThat(completion.usage()).hasValueSatisfying(usage -> assertThat(usage.totalTokens()).isEqualTo(26));
    }

    @Test
    void aNamedToolIsTheOneCalled() {
        ChatCompletionCreateParams params = askWithTools().toolChoice(ChatCompletionNamedToolChoice.builder()
                .function(ChatCompletionNamedToolChoice.Function.builder().name("get_time").build()).build()).build();

        ChatCompletionMessageFunctionToolCall call = onlyToolCall(client.chat().completions().create(params));

        assertThat(call.function().name()).isEqualTo("get_time");
        assertThat(call.function().arguments()).isEqualTo(ARGUMENTS);
    }

    @Test
    void theToolsResultIsAnsweredAsText() {
        ChatCompletionCreateParams first = askWithTools().build();
        ChatCompletionMessage asked = client.chat().completions().create(first).choices().getFirst().message();
        String callId = asked.toolCalls().orElseThrow().getFirst().asFunction().id();

        ChatCompletionCreateParams second = first.toBuilder().addMessage(asked)
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(callId).content("sunny, 24 degrees").build())
                .build();
        ChatCompletion answered = client.chat().completions().create(second);

        assertThat(answered.choices().getFirst().message().content()).contains("[gpt] the tool said: sunny, 24 degrees");
        assertThat(answered.choices().getFirst().message().toolCalls().orElse(java.util.List.of())).isEmpty();
        assertThat(answered.choices().getFirst().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(mock.receivedBodies().getLast().at("/messages/1/tool_calls/0/id").asText()).isEqualTo(callId);
        assertThat(mock.receivedBodies().getLast().at("/messages/2/tool_call_id").asText()).isEqualTo(callId);
    }
}
