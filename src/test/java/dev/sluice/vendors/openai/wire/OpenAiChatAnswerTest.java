package dev.sluice.vendors.openai.wire;

import static dev.sluice.vendors.openai.wire.OpenAiChatRequestTest.json;
import static dev.sluice.vendors.openai.wire.OpenAiChatRequestTest.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OpenAI's chat-completion answer to and from the internal {@link ChatAnswer}. */
class OpenAiChatAnswerTest {
    private static final long CREATED = 1_741_570_283L;

    /** An answer as OpenAI sends it: two tool calls, cached prompt tokens and reasoning tokens, fields the model does not keep. */
    private static final String OPENAI_ANSWER = """
            {"id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion", "created": 1741570283,
             "model": "gpt-4o-2024-08-06",
             "choices": [{"index": 0,
               "message": {"role": "assistant", "content": null, "refusal": null, "annotations": [],
                 "tool_calls": [
                   {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                   {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{\\"tz\\":\\"Europe/Paris\\"}"}}]},
               "logprobs": null, "finish_reason": "tool_calls"}],
             "usage": {"prompt_tokens": 1117, "completion_tokens": 46, "total_tokens": 1163,
               "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
               "completion_tokens_details": {"reasoning_tokens": 32, "audio_tokens": 0, "accepted_prediction_tokens": 0,
                 "rejected_prediction_tokens": 0}},
             "service_tier": "default", "system_fingerprint": "fp_fc9f1d7035"}
            """;

    private static final ChatAnswer ANSWER = new ChatAnswer("chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "gpt-4o-2024-08-06",
            List.of(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"), new ToolCall("call_2", "get_time", "{\"tz\":\"Europe/Paris\"}")),
            FinishReason.TOOL_CALLS, new Usage(1117, 46, 1024, 0, 32));

    @Test
    void anAnswerWithToolCallsAndDetailedUsageDecodesExactly() {
        assertThat(OpenAiChat.decodeAnswer(json(OPENAI_ANSWER))).isEqualTo(ANSWER);
    }

    @Test
    void anAnswerEncodesAsOpenAiWritesIt() {
        assertThat(wire(OpenAiChat.encodeAnswer(ANSWER, CREATED))).isEqualTo(json("""
                {"id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion", "created": 1741570283,
                 "model": "gpt-4o-2024-08-06",
                 "choices": [{"index": 0,
                   "message": {"role": "assistant", "content": null, "refusal": null,
                     "tool_calls": [
                       {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                       {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{\\"tz\\":\\"Europe/Paris\\"}"}}]},
                   "logprobs": null, "finish_reason": "tool_calls"}],
                 "usage": {"prompt_tokens": 1117, "completion_tokens": 46, "total_tokens": 1163,
                   "prompt_tokens_details": {"cached_tokens": 1024}, "completion_tokens_details": {"reasoning_tokens": 32}}}
                """));
        assertThat(OpenAiChat.decodeAnswer(OpenAiChat.encodeAnswer(ANSWER, CREATED))).isEqualTo(ANSWER);
    }

    @Test
    void openAisSdkReadsTheEncodedAnswer() throws Exception {
        String encoded = OpenAiChat.encodeAnswer(ANSWER, CREATED).toString();

        ChatCompletion completion = ObjectMappers.jsonMapper().readValue(encoded, ChatCompletion.class).validate();

        assertThat(completion.id()).isEqualTo("chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG");
        assertThat(completion.created()).isEqualTo(CREATED);
        assertThat(completion.model()).isEqualTo("gpt-4o-2024-08-06");
        ChatCompletion.Choice choice = completion.choices().get(0);
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        assertThat(choice.message().content()).isEmpty();
        assertThat(choice.message().toolCalls().orElseThrow()).extracting(call -> call.asFunction().function())
                .extracting(ChatCompletionMessageFunctionToolCall.Function::name, ChatCompletionMessageFunctionToolCall.Function::arguments)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("get_weather", "{\"city\":\"Paris\"}"),
                        org.assertj.core.groups.Tuple.tuple("get_time", "{\"tz\":\"Europe/Paris\"}"));
        assertThat(completion.usage().orElseThrow().promptTokens()).isEqualTo(1117);
        assertThat(completion.usage().orElseThrow().totalTokens()).isEqualTo(1163);
        assertThat(completion.usage().orElseThrow().promptTokensDetails().orElseThrow().cachedTokens()).hasValue(1024L);
        assertThat(completion.usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens()).hasValue(32L);
    }

    @Test
    void reasoningTextAndAnUnknownReasonSurviveTheRoundTrip() throws Exception {
        ChatAnswer answer = new ChatAnswer("msg_01", "claude-sonnet-4", List.of(new Reasoning("Paris is in France.", "EqQBCkYIARgC", false),
                new Reasoning("EmwKAhgBEgy3va3pzix", null, true), new Text("Paris "), new Text("is sunny.")),
                FinishReason.other("pause_turn"), new Usage(2000, 300, 1500, 400, 0));

        ObjectNode encoded = OpenAiChat.encodeAnswer(answer, CREATED);

        JsonNode message = encoded.at("/choices/0/message");
        assertThat(message.get("content").textValue()).isEqualTo("Paris is sunny.");
        assertThat(message.get("reasoning_content").textValue()).isEqualTo("Paris is in France.");
        assertThat(message.get("thinking_blocks")).isEqualTo(json("""
                [{"type": "thinking", "thinking": "Paris is in France.", "signature": "EqQBCkYIARgC"},
                 {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}]"""));
        assertThat(encoded.at("/choices/0/finish_reason").textValue()).isEqualTo("pause_turn");
        assertThat(encoded.at("/usage/cache_creation_input_tokens").longValue()).isEqualTo(400);
        assertThat(OpenAiChat.decodeAnswer(encoded)).isEqualTo(new ChatAnswer("msg_01", "claude-sonnet-4",
                List.of(answer.content().get(0), answer.content().get(1), new Text("Paris is sunny.")),
                FinishReason.other("pause_turn"), answer.usage()));
        ChatCompletion completion = ObjectMappers.jsonMapper().readValue(encoded.toString(), ChatCompletion.class);
        assertThat(completion.choices().get(0).message().content()).hasValue("Paris is sunny.");
        assertThat(completion.choices().get(0).message()._additionalProperties()).containsKeys("reasoning_content", "thinking_blocks");
    }

    @Test
    void aRefusalReadsAsTextAndAMissingUsageAsNone() {
        ChatAnswer answer = OpenAiChat.decodeAnswer(json("""
                {"id": "c", "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                  "refusal": "I can't help with that."}, "finish_reason": "stop"}]}
                """));

        assertThat(answer.content()).containsExactly(new Text("I can't help with that."));
        assertThat(answer.usage()).isEqualTo(Usage.NONE);
    }

    @Test
    void anImageOpenAiCannotAnswerWithIsRefusedByItsPart() {
        ChatAnswer answer = new ChatAnswer("c", "m", List.of(new Text("Here:"), Image.inline("image/png", "iVBORw0KGgo=", null)),
                FinishReason.STOP, Usage.NONE);

        assertThatThrownBy(() -> OpenAiChat.encodeAnswer(answer, CREATED)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("content[1]: Image (expected: text, reasoning or tool calls in an OpenAI answer)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"id": "c", "model": "m"}                                                            | choices: missing (expected: an array)
            {"id": "c", "model": "m", "choices": []}                                             | choices: [] (expected: exactly one choice)
            {"id": "c", "model": "m", "choices": [{"index": 0, "finish_reason": "stop"}]}        | choices[0].message: missing (expected: an object)
            {"id": "c", "model": "m", "choices": [{"message": {"content": "a"}, "finish_reason": null}]} | choices[0].finish_reason: null (expected: a string)
            {"id": "c", "model": "m", "choices": [{"message": {"content": "a"}, "finish_reason": 3}]} | choices[0].finish_reason: 3 (expected: a string)
            {"id": "c", "model": "m", "choices": [{"message": {"content": 7}, "finish_reason": "stop"}]} | choices[0].message.content: 7 (expected: a string)
            {"id": "c", "model": "m", "choices": [{"message": {"tool_calls": [{"id": "x", "function": {"arguments": "{}"}}]}, "finish_reason": "stop"}]} | choices[0].message.tool_calls[0].function.name: missing (expected: a string)
            {"model": "m", "choices": [{"message": {"content": "a"}, "finish_reason": "stop"}]}   | id: missing (expected: a string)
            {"id": "c", "model": "m", "choices": [{"message": {"content": "a"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": -3}} | usage.prompt_tokens: -3 (expected: a whole number >= 0)
            {"id": "c", "model": "m", "choices": [{"message": {"content": "a"}, "finish_reason": "stop"}], "usage": {"prompt_tokens_details": {"cached_tokens": "many"}}} | usage.prompt_tokens_details.cached_tokens: "many" (expected: a whole number >= 0)
            """)
    void aMalformedAnswerIsRefusedByItsPath(String body, String message) {
        assertThatThrownBy(() -> OpenAiChat.decodeAnswer(json(body))).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
