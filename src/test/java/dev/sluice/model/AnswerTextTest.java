package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The answer text a post_call guardrail reads, from whole bodies and from streamed events. */
class AnswerTextTest {

    @Test
    void readsAChatAnswer() {
        assertThat(AnswerText.ofBody(json("""
                {"id": "c1", "object": "chat.completion", "choices": [
                  {"index": 0, "message": {"role": "assistant", "content": "Hello there."}, "finish_reason": "stop"}]}
                """))).isEqualTo("Hello there.");
    }

    @Test
    void readsContentWrittenAsParts() {
        assertThat(AnswerText.ofBody(json("""
                {"choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": "one "}, {"type": "text", "text": "two"}]}}]}
                """))).isEqualTo("one two");
    }

    @Test
    void readsACompletionsAnswer() {
        assertThat(AnswerText.ofBody(json("""
                {"object": "text_completion", "choices": [{"index": 0, "text": "once upon a time"}]}
                """))).isEqualTo("once upon a time");
    }

    @Test
    void putsEachChoiceOnItsOwnLine() {
        assertThat(AnswerText.ofBody(json("""
                {"choices": [{"index": 0, "message": {"content": "first"}}, {"index": 1, "message": {"content": "second"}}]}
                """))).isEqualTo("first\nsecond");
    }

    @Test
    void anAnswerWithoutTextIsEmpty() {
        assertThat(AnswerText.ofBody(json("""
                {"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "t"}]}}]}
                """))).isEmpty();
        assertThat(AnswerText.ofBody(json("{\"error\": {\"message\": \"no\"}}"))).isEmpty();
        assertThat(AnswerText.ofBody(json("{\"object\": \"list\", \"data\": [{\"embedding\": [0.1]}]}"))).isEmpty();
    }

    @Test
    void joinsTheDeltasOfAStreamedChatAnswer() {
        List<String> events = List.of(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}]}\n\n",
                "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                "data: {\"choices\":[],\"usage\":{\"total_tokens\":3}}\n\n",
                "data: [DONE]\n\n");

        assertThat(AnswerText.ofEvents(events)).isEqualTo("Hello");
    }

    @Test
    void keepsInterleavedChoicesApart() {
        String stream = """
                data: {"choices":[{"index":0,"delta":{"content":"pass"}}]}

                data: {"choices":[{"index":1,"delta":{"content":"other "}}]}

                data: {"choices":[{"index":0,"delta":{"content":"word"}}]}

                data: {"choices":[{"index":1,"delta":{"content":"text"}}]}

                """;

        assertThat(AnswerText.ofEvents(stream)).isEqualTo("password\nother text");
    }

    @Test
    void readsAStreamedCompletionsAnswer() {
        assertThat(AnswerText.ofEvents("""
                data: {"choices":[{"index":0,"text":"once "}]}

                data: {"choices":[{"index":0,"text":"upon"}]}

                data: [DONE]

                """)).isEqualTo("once upon");
    }

    @Test
    void toleratesCarriageReturnsCommentsMultiLineDataAndEventsThatAreNotJson() {
        String stream = ": keep-alive\r\n\r\n"
                + "event: message\r\ndata: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"a\"}}]}\r\n\r\n"
                + "data: not json\r\n\r\n"
                + "data:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"}}]}\r\n\r\n"
                + "data: {\"error\":{\"message\":\"upstream broke\"}}\r\n\r\n";

        assertThat(AnswerText.ofEvents(stream)).isEqualTo("ab");
    }

    @Test
    void readsStreamedPartsIndicesGivenAfterTheDeltaAndSkipsEveryOtherField() {
        String stream = """
                data: {"id":"c1","choices":[{"delta":{"role":"assistant","content":"one "},"index":1,"logprobs":{"content":[{"token":"x"}]}}],"usage":null}

                data: {"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"zero"},{"type":"image_url"}]}}]}

                data: {"choices":[{"index":1.0,"delta":{"content":"two"},"text":"!"}]}

                data: {"choices":[{"delta":{"content":"lost"}}], "broken": }

                data: {"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0}]}}]} trailing

                """;

        assertThat(AnswerText.ofEvents(stream)).isEqualTo("zero\none two!");
    }

    @Test
    void anEmptyStreamHasNoText() {
        assertThat(AnswerText.ofEvents(List.of())).isEmpty();
        assertThat(AnswerText.ofEvents("data: [DONE]\n\n")).isEmpty();
    }

    private static JsonNode json(String text) {
        try {
            return Json.parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
