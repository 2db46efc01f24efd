package dev.sluice.vendors.gemini.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.failure.FailureClass;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.gemini.wire.GeminiChat;
import dev.sluice.vendors.gemini.wire.ToolCallIds;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Gemini's stream events, including the error Google may send inside a stream that already started. */
class GeminiEventDecoderTest {
    private final GeminiEventDecoder decoder = new GeminiEventDecoder(
            GeminiChat.chunkDecoder("gemini-2.5-flash", ToolCallIds.from(new Random(7))),
            Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));

    private static Frame data(String json) {
        return new Frame(null, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anErrorEventInsideTheStreamIsItsClassifiedFailure() {
        assertThat(decoder.decode(data("""
                {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}],"responseId":"r1","modelVersion":"gemini-2.5-flash"}""")))
                .hasAtLeastOneElementOfType(StreamEvent.TextDelta.class);

        assertThatThrownBy(() -> decoder.decode(data("""
                {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}""")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> {
                    assertThat(f.failure().kind()).isEqualTo(FailureClass.SERVER);
                    assertThat(f.failure().status()).isEqualTo(503);
                });
        assertThatThrownBy(() -> decoder.decode(data("""
                {"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}""")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> assertThat(f.failure().kind()).isEqualTo(FailureClass.RATE_LIMITED));
    }

    @Test
    void anEventThatIsNotJsonIsAServerFailure() {
        assertThatThrownBy(() -> decoder.decode(data("<html>bad gateway</html>")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> assertThat(f.failure().kind()).isEqualTo(FailureClass.SERVER));
    }
}
