package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequestEncodingTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Gemini's {@code GenerateContentResponse} read into the internal {@link ChatAnswer}. */
class GeminiAnswerDecodingTest {

    static ToolCallIds counting() {
        AtomicInteger next = new AtomicInteger();
        return () -> "call_" + next.incrementAndGet();
    }

    @Test
    void textThoughtsAndUsageAreRead() {
        ChatAnswer answer = GeminiChat.decodeAnswer(json("""
                {"candidates": [{"content": {"role": "model", "parts": [
                   {"text": "Let me think.", "thought": true}, {"text": "Paris."}]}, "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 3, "thoughtsTokenCount": 5,
                   "cachedContentTokenCount": 4, "totalTokenCount": 18},
                 "modelVersion": "gemini-2.5-flash", "responseId": "resp-1"}"""), "gemini-2.5-flash", counting());
        assertThat(answer.id()).isEqualTo("resp-1");
        assertThat(answer.model()).isEqualTo("gemini-2.5-flash");
        assertThat(answer.content()).containsExactly(ContentPart.Reasoning.plain("Let me think."), new ContentPart.Text("Paris."));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(answer.usage()).isEqualTo(new Usage(10, 8, 4, 0, 5));
    }

    @Test
    void functionCallsAreToolCallsWithFreshIdsAndArgumentsAsJsonText() {
        ChatAnswer answer = GeminiChat.decodeAnswer(json("""
                {"candidates": [{"content": {"role": "model", "parts": [
                   {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                   {"functionCall": {"name": "now"}}]}, "finishReason": "STOP"}]}"""), "gemini-2.0-flash", counting());
        assertThat(answer.content()).containsExactly(
                new ContentPart.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"),
                new ContentPart.ToolCall("call_2", "now", "{}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(answer.model()).isEqualTo("gemini-2.0-flash");
        assertThat(answer.usage()).isEqualTo(Usage.NONE);
    }

    @Test
    void aFunctionCallsThoughtSignatureRidesInItsId() {
        ChatAnswer answer = GeminiChat.decodeAnswer(json("""
                {"candidates": [{"content": {"parts": [
                   {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2ln"}]}, "finishReason": "STOP"}]}"""),
                "gemini-3-pro-preview", counting());
        assertThat(answer.content()).containsExactly(new ContentPart.ToolCall("call_1__thought__c2ln", "f", "{}"));
    }

    @ParameterizedTest
    @CsvSource({"STOP, STOP", "MAX_TOKENS, LENGTH", "SAFETY, CONTENT_FILTER", "RECITATION, CONTENT_FILTER",
            "BLOCKLIST, CONTENT_FILTER", "PROHIBITED_CONTENT, CONTENT_FILTER", "SPII, CONTENT_FILTER"})
    void finishReasonsMapToOpenAis(String gemini, FinishReason.Kind kind) {
        ChatAnswer answer = GeminiChat.decodeAnswer(json("""
                {"candidates": [{"content": {"parts": [{"text": "partial"}]}, "finishReason": "%s"}]}""".formatted(gemini)),
                "m", counting());
        assertThat(answer.finishReason().kind()).isEqualTo(kind);
    }

    @Test
    void aBlockedPromptIsARefusalNotAnEmptyAnswer() {
        assertThatThrownBy(() -> GeminiChat.decodeAnswer(json("""
                {"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": [
                   {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true}]},
                 "usageMetadata": {"promptTokenCount": 8}}"""), "m", counting()))
                .isInstanceOfSatisfying(GeminiBlocked.class, b -> assertThat(b.reason()).isEqualTo("SAFETY"))
                .hasMessageContaining("blockReason SAFETY").hasMessageContaining("HARM_CATEGORY_DANGEROUS_CONTENT");
    }

    @Test
    void aCandidateWithheldForSafetyWithNothingSaidIsARefusal() {
        assertThatThrownBy(() -> GeminiChat.decodeAnswer(json("""
                {"candidates": [{"finishReason": "SAFETY", "safetyRatings": []}]}"""), "m", counting()))
                .isInstanceOfSatisfying(GeminiBlocked.class, b -> assertThat(b.reason()).isEqualTo("SAFETY"));
    }
}
