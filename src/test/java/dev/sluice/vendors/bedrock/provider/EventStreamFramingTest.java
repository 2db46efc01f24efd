package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.failure.FailureClass;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AWS event-stream frames cut from bytes however they arrive, their checksums checked. */
class EventStreamFramingTest {

    @Test
    void framesSplitAcrossChunksByteByByteAreWholeAgain() {
        Buffer bytes = Frames.event("messageStart", "{\"role\":\"assistant\"}")
                .appendBuffer(Frames.exception("throttlingException", "{\"message\":\"slow\"}"));
        EventStreamFraming framing = new EventStreamFraming();
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < bytes.length(); i++) {
            frames.addAll(framing.feed(bytes.getBuffer(i, i + 1)));
        }
        frames.addAll(framing.end());

        assertThat(frames).extracting(Frame::type).containsExactly("messageStart", "throttlingException");
        assertThat(new String(frames.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("{\"role\":\"assistant\"}");
    }

    @Test
    void aCorruptFrameFailsTheStreamAfterTheGoodFramesBeforeIt() {
        EventStreamFraming framing = new EventStreamFraming();
        Buffer bytes = Frames.event("messageStart", "{}").appendBuffer(Frames.corrupt(Frames.event("contentBlockDelta",
                "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"hi\"}}")));

        assertThat(framing.feed(bytes)).extracting(Frame::type).containsExactly("messageStart");
        assertThatThrownBy(framing::end).isInstanceOfSatisfying(StreamFailure.class,
                e -> assertThat(e.failure().kind()).isEqualTo(FailureClass.SERVER));
    }

    @Test
    void aCorruptFirstFrameFailsAtOnce() {
        assertThatThrownBy(() -> new EventStreamFraming().feed(Frames.corrupt(Frames.event("messageStart", "{\"role\":\"x\"}"))))
                .isInstanceOf(StreamFailure.class).hasMessageContaining("unreadable event-stream frame");
    }

    @Test
    void aBodyEndingInsideAFrameFailsTheStream() {
        Buffer frame = Frames.event("messageStart", "{}");
        EventStreamFraming framing = new EventStreamFraming();
        assertThat(framing.feed(frame.getBuffer(0, frame.length() - 3))).isEmpty();
        assertThatThrownBy(framing::end).isInstanceOf(StreamFailure.class).hasMessageContaining("inside a frame");
    }
}
