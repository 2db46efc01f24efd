package dev.sluice.vendors.anthropic.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.StreamEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnthropicStreamEncoderTest {

    private static List<String> types(List<AnthropicStreamEncoder.Event> events) {
        return events.stream().map(AnthropicStreamEncoder.Event::name).toList();
    }

    @Test
    void aCallWhoseIdIsRepeatedOnEveryFragmentIsOneBlock() {
        AnthropicStreamEncoder encoder = new AnthropicStreamEncoder();
        List<AnthropicStreamEncoder.Event> events = encoder.encode(List.of(new StreamEvent.Started("msg_1", "m"),
                new StreamEvent.ToolCallDelta(0, "call_1", "f", "{\"a\""),
                new StreamEvent.ToolCallDelta(0, "call_1", "f", ":1}"),
                new StreamEvent.ToolCallDelta(1, "call_2", "g", "{}")));

        assertThat(types(events)).containsExactly("message_start", "content_block_start", "content_block_delta",
                "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta");
        assertThat(events.get(5).data().path("index").asInt()).isEqualTo(1);
        assertThat(events.get(5).data().at("/content_block/id").asText()).isEqualTo("call_2");
    }

    @Test
    void aFragmentOfACallAlreadyClosedIsRefused() {
        AnthropicStreamEncoder encoder = new AnthropicStreamEncoder();
        encoder.encode(List.of(new StreamEvent.Started("msg_1", "m"), new StreamEvent.ToolCallDelta(0, "call_1", "f", "{}"),
                new StreamEvent.ToolCallDelta(1, "call_2", "g", "{}")));

        assertThatThrownBy(() -> encoder.encode(List.of(new StreamEvent.ToolCallDelta(0, null, null, "x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index: 0");
    }
}
