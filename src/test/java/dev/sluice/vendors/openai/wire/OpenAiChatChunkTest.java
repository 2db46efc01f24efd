package dev.sluice.vendors.openai.wire;

import static dev.sluice.vendors.openai.wire.OpenAiChatRequestTest.json;
import static dev.sluice.vendors.openai.wire.OpenAiChatRequestTest.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OpenAI's chat-completion stream chunks to and from the internal {@link StreamEvent}s. */
class OpenAiChatChunkTest {
    private static final long CREATED = 1_741_570_283L;
    private static final String HEAD = "\"id\": \"chatcmpl-1\", \"object\": \"chat.completion.chunk\", \"created\": 1741570283, \"model\": \"gpt-4o\"";

    /** A stream as OpenAI-compatible servers send it, with stream_options.include_usage: each line is one chunk. */
    private static final List<String> STREAM = List.of(
            "{" + HEAD + ", \"system_fingerprint\": \"fp_1\", \"choices\": [{\"index\": 0, \"delta\": {\"role\": \"assistant\", \"content\": \"\", \"refusal\": null}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"reasoning_content\": \"Weather and time\"}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Checking\"}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": \"\"}}]}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"{\\\"city\\\":\"}}]}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"\\\"Paris\\\"}\"}}]}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 1, \"id\": \"call_2\", \"type\": \"function\", \"function\": {\"name\": \"get_time\", \"arguments\": \"{}\"}}]}, \"logprobs\": null, \"finish_reason\": null}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {}, \"logprobs\": null, \"finish_reason\": \"tool_calls\"}], \"usage\": null}",
            "{" + HEAD + ", \"choices\": [], \"usage\": {\"prompt_tokens\": 80, \"completion_tokens\": 30, \"total_tokens\": 110, \"prompt_tokens_details\": {\"cached_tokens\": 64, \"audio_tokens\": 0}, \"completion_tokens_details\": {\"reasoning_tokens\": 12, \"audio_tokens\": 0}}}");

    private static final List<List<StreamEvent>> EVENTS = List.of(
            List.of(new Started("chatcmpl-1", "gpt-4o")),
            List.of(new ReasoningDelta("Weather and time", null, false)),
            List.of(new TextDelta("Checking")),
            List.of(new ToolCallDelta(0, "call_1", "get_weather", "")),
            List.of(new ToolCallDelta(0, null, null, "{\"city\":")),
            List.of(new ToolCallDelta(0, null, null, "\"Paris\"}")),
            List.of(new ToolCallDelta(1, "call_2", "get_time", "{}")),
            List.of(new Finished(FinishReason.TOOL_CALLS)),
            List.of(new UsageReported(new Usage(80, 30, 64, 0, 12))));

    /** What the encoder writes for each chunk's events: OpenAI's shape without the fields the model does not keep. */
    private static final List<String> ENCODED = List.of(
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"role\": \"assistant\", \"content\": \"\"}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"reasoning_content\": \"Weather and time\"}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Checking\"}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": \"\"}}]}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"{\\\"city\\\":\"}}]}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"\\\"Paris\\\"}\"}}]}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 1, \"id\": \"call_2\", \"type\": \"function\", \"function\": {\"name\": \"get_time\", \"arguments\": \"{}\"}}]}, \"finish_reason\": null}]}",
            "{" + HEAD + ", \"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"tool_calls\"}]}",
            "{" + HEAD + ", \"choices\": [], \"usage\": {\"prompt_tokens\": 80, \"completion_tokens\": 30, \"total_tokens\": 110, \"prompt_tokens_details\": {\"cached_tokens\": 64}, \"completion_tokens_details\": {\"reasoning_tokens\": 12}}}");

    @Test
    void aStreamDecodesIntoTheExactEventSequence() {
        OpenAiChatChunkDecoder decoder = OpenAiChat.chunkDecoder();

        List<List<StreamEvent>> events = new ArrayList<>();
        STREAM.forEach(chunk -> events.add(decoder.decode(json(chunk))));

        assertThat(events).isEqualTo(EVENTS);
    }

    @Test
    void eachChunksEventsEncodeBackIntoOneChunkThatDecodesTheSame() {
        OpenAiChatChunkEncoder encoder = OpenAiChat.chunkEncoder(CREATED);
        OpenAiChatChunkDecoder decoder = OpenAiChat.chunkDecoder();

        for (int i = 0; i < EVENTS.size(); i++) {
            List<ObjectNode> chunks = encoder.encode(EVENTS.get(i));

            assertThat(chunks).as("chunk %d", i).hasSize(1);
            assertThat(wire(chunks.get(0))).as("chunk %d", i).isEqualTo(json(ENCODED.get(i)));
            assertThat(decoder.decode(chunks.get(0))).as("chunk %d", i).isEqualTo(EVENTS.get(i));
        }
    }

    @Test
    void openAisSdkReadsEveryEncodedChunk() throws Exception {
        OpenAiChatChunkEncoder encoder = OpenAiChat.chunkEncoder(CREATED);
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        for (List<StreamEvent> events : EVENTS) {
            for (ObjectNode chunk : encoder.encode(events)) {
                chunks.add(ObjectMappers.jsonMapper().readValue(chunk.toString(), ChatCompletionChunk.class).validate());
            }
        }

        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.id()).isEqualTo("chatcmpl-1");
            assertThat(chunk.model()).isEqualTo("gpt-4o");
            assertThat(chunk.created()).isEqualTo(CREATED);
        });
        assertThat(chunks.get(0).choices().get(0).delta().role()).hasValue(ChatCompletionChunk.Choice.Delta.Role.ASSISTANT);
        assertThat(chunks.get(2).choices().get(0).delta().content()).hasValue("Checking");
        StringBuilder arguments = new StringBuilder();
        for (ChatCompletionChunk chunk : chunks.subList(3, 6)) {
            ChatCompletionChunk.Choice.Delta.ToolCall call = chunk.choices().get(0).delta().toolCalls().orElseThrow().get(0);
            assertThat(call.index()).isZero();
            arguments.append(call.function().orElseThrow().arguments().orElseThrow());
        }
        assertThat(arguments).hasToString("{\"city\":\"Paris\"}");
        ChatCompletionChunk.Choice.Delta.ToolCall second = chunks.get(6).choices().get(0).delta().toolCalls().orElseThrow().get(0);
        assertThat(second.index()).isEqualTo(1);
        assertThat(second.id()).hasValue("call_2");
        assertThat(second.function().orElseThrow().name()).hasValue("get_time");
        assertThat(chunks.get(7).choices().get(0).finishReason()).hasValue(ChatCompletionChunk.Choice.FinishReason.TOOL_CALLS);
        assertThat(chunks.get(8).choices()).isEmpty();
        assertThat(chunks.get(8).usage().orElseThrow().promptTokensDetails().orElseThrow().cachedTokens()).hasValue(64L);
        assertThat(chunks.get(8).usage().orElseThrow().completionTokensDetails().orElseThrow().reasoningTokens()).hasValue(12L);
    }

    @Test
    void eventsInChunkOrderShareAChunkAndOthersOpenTheNext() {
        OpenAiChatChunkEncoder encoder = OpenAiChat.chunkEncoder(CREATED);

        List<ObjectNode> chunks = encoder.encode(List.of(new Started("chatcmpl-2", "m"), new TextDelta("Hi"),
                new ToolCallDelta(0, "call_1", "f", "{}"), new ToolCallDelta(1, "call_2", "g", "{}"), new TextDelta(" there"),
                new Finished(FinishReason.STOP), new UsageReported(new Usage(5, 2, 0, 0, 0))));

        assertThat(chunks).hasSize(2);
        assertThat(chunks.get(0).at("/choices/0/delta")).isEqualTo(json("""
                {"role": "assistant", "content": "Hi", "tool_calls": [
                  {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                  {"index": 1, "id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}"""));
        assertThat(wire(chunks.get(1))).isEqualTo(json("{\"id\": \"chatcmpl-2\", \"object\": \"chat.completion.chunk\", "
                + "\"created\": 1741570283, \"model\": \"m\", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \" there\"}, "
                + "\"finish_reason\": \"stop\"}], \"usage\": {\"prompt_tokens\": 5, \"completion_tokens\": 2, \"total_tokens\": 7, "
                + "\"prompt_tokens_details\": {\"cached_tokens\": 0}, \"completion_tokens_details\": {\"reasoning_tokens\": 0}}}"));
    }

    @Test
    void aReasoningSignatureRidesInThinkingBlocksBothWays() {
        OpenAiChatChunkEncoder encoder = OpenAiChat.chunkEncoder(CREATED);
        OpenAiChatChunkDecoder decoder = OpenAiChat.chunkDecoder();
        List<List<StreamEvent>> events = List.of(List.of(new Started("msg_1", "claude")),
                List.of(new ReasoningDelta("", "EqQBCkYIARgC", false)), List.of(new ReasoningDelta("EmwKAhgB", null, true)));

        List<JsonNode> deltas = new ArrayList<>();
        for (List<StreamEvent> group : events) {
            ObjectNode chunk = encoder.encode(group).get(0);
            deltas.add(chunk.at("/choices/0/delta"));
            assertThat(decoder.decode(chunk)).isEqualTo(group);
        }

        assertThat(deltas.get(1)).isEqualTo(json("""
                {"reasoning_content": "", "thinking_blocks": [{"type": "thinking", "thinking": "", "signature": "EqQBCkYIARgC"}]}"""));
        assertThat(deltas.get(2)).isEqualTo(json("{\"thinking_blocks\": [{\"type\": \"redacted_thinking\", \"data\": \"EmwKAhgB\"}]}"));
    }

    @Test
    void theEncoderNeedsOneStartedEventFirst() {
        assertThatThrownBy(() -> OpenAiChat.chunkEncoder(CREATED).encode(List.of(new TextDelta("hi"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("events[0]: TextDelta (expected: Started first)");
        OpenAiChatChunkEncoder encoder = OpenAiChat.chunkEncoder(CREATED);
        encoder.encode(List.of(new Started("a", "m")));
        assertThatThrownBy(() -> encoder.encode(List.of(new TextDelta("x"), new Started("b", "m"))))
                .hasMessage("events[1]: Started (expected: one Started per stream)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"model": "m", "choices": []}                                                          | id: missing (expected: a string)
            {"id": "c", "model": "m", "choices": {}}                                               | choices: {} (expected: an array)
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {}}, {"index": 1, "delta": {}}]} | `choices: [{"index":0,"delta":{}},{"index":1,"delta":{}}] (expected: at most one choice)`
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": "hi"}]}                    | choices[0].delta: "hi" (expected: an object)
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"content": 1}}]}          | choices[0].delta.content: 1 (expected: a string)
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"function": {"arguments": "{"}}]}}]} | choices[0].delta.tool_calls[0].index: missing (expected: a whole number >= 0)
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 5}}]}}]} | choices[0].delta.tool_calls[0].function.arguments: 5 (expected: a string)
            {"id": "c", "model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": ""}]} | choices[0].finish_reason: "" (expected: a non-blank string)
            {"id": "c", "model": "m", "choices": [], "usage": {"completion_tokens": -1}}           | usage.completion_tokens: -1 (expected: a whole number >= 0)
            {"id": "c", "model": "m", "choices": [], "usage": "lots"}                              | usage: "lots" (expected: an object)
            """)
    void aMalformedChunkIsRefusedByItsPath(String chunk, String message) {
        assertThatThrownBy(() -> OpenAiChat.chunkDecoder().decode(json(chunk))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
