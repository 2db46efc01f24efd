package dev.sluice.vendors.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.Usage;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A vendor's stream as the caller gets it: whole OpenAI chunks however the bytes are cut,
 * the usage chunk only when asked, {@code [DONE]} only after the vendor said why it stopped,
 * and a vendor error event thrown as the failure it is.
 */
class TranslatedStreamTest {

    /** A toy vendor: {@code event: start|text|stop|usage|error}, with the text or count as data. */
    private static final class ToyDecoder implements EventDecoder {
        @Override
        public List<StreamEvent> decode(Frame frame) {
            String data = new String(frame.payload(), StandardCharsets.UTF_8);
            return switch (frame.type()) {
                case "start" -> List.of(new StreamEvent.Started("id-1", "toy"));
                case "text" -> List.of(new StreamEvent.TextDelta(data));
                case "stop" -> List.of(new StreamEvent.Finished(FinishReason.STOP));
                case "usage" -> List.of(new StreamEvent.UsageReported(new Usage(Long.parseLong(data), 2, 0, 0, 0)));
                case "error" -> throw new StreamFailure(Failure.of(FailureClass.SERVER, data));
                default -> List.of();
            };
        }
    }

    private static final String WHOLE = "event: start\ndata: {}\n\n: a comment\n\nevent: text\ndata: Hel\n\n"
            + "event: text\ndata: lo\n\nevent: ping\ndata: {}\n\nevent: usage\ndata: 7\n\nevent: stop\ndata: {}\n\n";

    @Test
    void writesOneChunkPerVendorEventAndEndsWithDoneOnceTheVendorStopped() throws IOException {
        TranslatedStream stream = new TranslatedStream(new SseFraming(), new ToyDecoder(), false, 1700000000);

        List<String> events = events(stream.feed(Buffer.buffer(WHOLE)).appendBuffer(stream.end()));

        assertThat(events).hasSize(5).last().isEqualTo("[DONE]");
        JsonNode first = Json.parse(events.get(0).getBytes(StandardCharsets.UTF_8));
        assertThat(first.path("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(first.path("id").asText()).isEqualTo("id-1");
        assertThat(first.path("created").asLong()).isEqualTo(1700000000);
        assertThat(text(events)).isEqualTo("Hello");
        assertThat(Json.parse(events.get(3).getBytes(StandardCharsets.UTF_8)).path("choices").path(0).path("finish_reason").asText())
                .isEqualTo("stop");
        assertThat(String.join("\n", events)).doesNotContain("\"usage\"");
        assertThat(stream.usage()).contains(new Usage(7, 2, 0, 0, 0));
    }

    @Test
    void bytesCutAnywhereGiveTheSameEvents() throws IOException {
        byte[] bytes = WHOLE.getBytes(StandardCharsets.UTF_8);
        for (int cut = 1; cut < bytes.length; cut += 7) {
            TranslatedStream stream = new TranslatedStream(new SseFraming(), new ToyDecoder(), false, 1700000000);
            Buffer out = Buffer.buffer();
            for (int at = 0; at < bytes.length; at += cut) {
                out.appendBuffer(stream.feed(Buffer.buffer().appendBytes(bytes, at, Math.min(cut, bytes.length - at))));
            }
            out.appendBuffer(stream.end());
            assertThat(text(events(out))).as("cut every %d bytes", cut).isEqualTo("Hello");
            assertThat(events(out)).last().isEqualTo("[DONE]");
        }
    }

    @Test
    void theUsageChunkComesBeforeDoneWhenTheCallerAskedForIt() throws IOException {
        TranslatedStream stream = new TranslatedStream(new SseFraming(), new ToyDecoder(), true, 1);

        List<String> events = events(stream.feed(Buffer.buffer(WHOLE)).appendBuffer(stream.end()));

        JsonNode usage = Json.parse(events.get(events.size() - 2).getBytes(StandardCharsets.UTF_8));
        assertThat(usage.path("choices").isArray() && usage.path("choices").isEmpty()).isTrue();
        assertThat(usage.path("usage").path("prompt_tokens").asLong()).isEqualTo(7);
        assertThat(usage.path("usage").path("total_tokens").asLong()).isEqualTo(9);
    }

    @Test
    void aStreamThatEndsBeforeTheVendorStoppedHasNoDone() throws IOException {
        TranslatedStream stream = new TranslatedStream(new SseFraming(), new ToyDecoder(), true, 1);

        List<String> events = events(stream.feed(Buffer.buffer("event: start\ndata: {}\n\nevent: text\ndata: Hi\n\n"))
                .appendBuffer(stream.end()));

        assertThat(events).hasSize(2).doesNotContain("[DONE]");
    }

    @Test
    void aVendorErrorEventIsThrownAsItsFailure() {
        TranslatedStream stream = new TranslatedStream(new SseFraming(), new ToyDecoder(), false, 1);
        stream.feed(Buffer.buffer("event: start\ndata: {}\n\n"));

        assertThatThrownBy(() -> stream.feed(Buffer.buffer("event: error\ndata: Overloaded\n\n")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> {
                    assertThat(f.failure().kind()).isEqualTo(FailureClass.SERVER);
                    assertThat(f.getMessage()).isEqualTo("Overloaded");
                });
    }

    @Test
    void sseFramingJoinsDataLinesAndReadsTheLastEventWithoutItsBlankLine() {
        SseFraming framing = new SseFraming();
        List<Frame> frames = new ArrayList<>(framing.feed(Buffer.buffer("event: a\r\ndata: one\r\ndata: two\r\n\r\ndata:x")));
        frames.addAll(framing.end());

        assertThat(frames).hasSize(2);
        assertThat(frames.get(0).type()).isEqualTo("a");
        assertThat(new String(frames.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("one\ntwo");
        assertThat(frames.get(1).type()).isNull();
        assertThat(new String(frames.get(1).payload(), StandardCharsets.UTF_8)).isEqualTo("x");
    }

    private static List<String> events(Buffer out) {
        List<String> events = new ArrayList<>();
        for (String event : out.toString(StandardCharsets.UTF_8).split("\n\n")) {
            if (!event.isEmpty()) {
                assertThat(event).startsWith("data: ");
                events.add(event.substring(6));
            }
        }
        return events;
    }

    private static String text(List<String> events) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String event : events) {
            if (!event.equals("[DONE]")) {
                JsonNode delta = Json.parse(event.getBytes(StandardCharsets.UTF_8)).path("choices").path(0).path("delta");
                text.append(delta.path("content").asText(""));
            }
        }
        return text.toString();
    }
}
