package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiAnswerDecodingTest.counting;
import static dev.sluice.vendors.gemini.wire.GeminiRequestEncodingTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.Usage;
import org.junit.jupiter.api.Test;

/** The chunks of {@code streamGenerateContent?alt=sse} read as internal stream events. */
class GeminiChunkDecoderTest {

    @Test
    void textDeltasThenFinishWithTheLastUsage() {
        GeminiChunkDecoder decoder = GeminiChat.chunkDecoder("gemini-2.0-flash", counting());
        assertThat(decoder.decode(json("""
                {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}}],
                 "usageMetadata": {"promptTokenCount": 4}, "modelVersion": "gemini-2.0-flash-001", "responseId": "r1"}""")))
                .containsExactly(new StreamEvent.Started("r1", "gemini-2.0-flash-001"), new StreamEvent.TextDelta("Hel"),
                        new StreamEvent.UsageReported(new Usage(4, 0, 0, 0, 0)));
        assertThat(decoder.decode(json("""
                {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP"}],
                 "usageMetadata": {"promptTokenCount": 4, "candidatesTokenCount": 2}, "responseId": "r1"}""")))
                .containsExactly(new StreamEvent.TextDelta("lo"), new StreamEvent.UsageReported(new Usage(4, 2, 0, 0, 0)),
                        new StreamEvent.Finished(FinishReason.STOP));
    }

    @Test
    void eachFunctionCallIsOneWholeToolCallDeltaAndTheStreamEndsWithToolCalls() {
        GeminiChunkDecoder decoder = GeminiChat.chunkDecoder("m", counting());
        assertThat(decoder.decode(json("""
                {"candidates": [{"content": {"parts": [{"thought": true, "text": "hmm"},
                   {"functionCall": {"name": "a", "args": {"x": 1}}}, {"functionCall": {"name": "b", "args": {}}}]},
                   "finishReason": "STOP"}]}""")))
                .containsExactly(new StreamEvent.Started("chatcmpl-1", "m"), new StreamEvent.ReasoningDelta("hmm", null, false),
                        new StreamEvent.ToolCallDelta(0, "call_2", "a", "{\"x\":1}"),
                        new StreamEvent.ToolCallDelta(1, "call_3", "b", "{}"),
                        new StreamEvent.Finished(FinishReason.TOOL_CALLS));
    }

    @Test
    void aBlockedPromptInTheFirstChunkIsARefusal() {
        GeminiChunkDecoder decoder = GeminiChat.chunkDecoder("m", counting());
        assertThatThrownBy(() -> decoder.decode(json("{\"promptFeedback\": {\"blockReason\": \"PROHIBITED_CONTENT\"}}")))
                .isInstanceOf(GeminiBlocked.class).hasMessageContaining("PROHIBITED_CONTENT");
    }

    @Test
    void aSafetyStopAfterTextEndsTheStreamAsContentFilter() {
        GeminiChunkDecoder decoder = GeminiChat.chunkDecoder("m", counting());
        decoder.decode(json("{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Once\"}]}}]}"));
        assertThat(decoder.decode(json("{\"candidates\": [{\"finishReason\": \"SAFETY\"}]}")))
                .containsExactly(new StreamEvent.Finished(FinishReason.CONTENT_FILTER));
    }

    @Test
    void aSafetyStopBeforeAnythingWasSaidIsARefusal() {
        GeminiChunkDecoder decoder = GeminiChat.chunkDecoder("m", counting());
        assertThatThrownBy(() -> decoder.decode(json("{\"candidates\": [{\"finishReason\": \"SAFETY\"}]}")))
                .isInstanceOf(GeminiBlocked.class);
    }
}
