package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.entry.PassedThroughStream;
import dev.sluice.wire.ErrorBodies;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessagesEventStreamTest {

    private static Buffer chunk(String delta, String finish) {
        return Buffer.buffer("data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + (finish == null ? "null" : "\"" + finish + "\"")
                + "}]}\n\n");
    }

    private static final Buffer USAGE = Buffer.buffer("data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"gpt-4o\",\"choices\":[],\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18}}\n\n");

    private static List<JsonNode> events(Buffer written) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (SseEvents.SseEvent event : SseEvents.read(written)) {
            JsonNode data = Json.parse(event.data().getBytes());
            assertThat(data.path("type").asText()).as("the event's name is its data's type").isEqualTo(event.name());
            events.add(data);
        }
        return events;
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("type").asText()).toList();
    }

    @Test
    void textThenAToolCallIsAnthropicsExactSequence() throws IOException {
        MessagesEventStream stream = new MessagesEventStream();
        Buffer out = Buffer.buffer();
        out.appendBuffer(stream.feed(Buffer.buffer(), chunk("{\"role\":\"assistant\",\"content\":\"\"}", null)));
        out.appendBuffer(stream.feed(Buffer.buffer(), chunk("{\"content\":\"Hel\"}", null).appendBuffer(chunk("{\"content\":\"lo\"}", null))));
        out.appendBuffer(stream.feed(Buffer.buffer(), chunk(
                "{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"t\",\"arguments\":\"\"}}]}", null)));
        out.appendBuffer(stream.feed(Buffer.buffer(), chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\":1}\"}}]}", null)));
        out.appendBuffer(stream.feed(Buffer.buffer(), chunk("{}", "tool_calls")));
        out.appendBuffer(stream.end(USAGE.copy().appendString("data: [DONE]\n\n")));

        List<JsonNode> events = events(out);
        assertThat(types(events)).containsExactly("message_start", "ping", "content_block_start", "content_block_delta",
                "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta", "content_block_stop",
                "message_delta", "message_stop");
        assertThat(events.get(0).at("/message/id").asText()).isEqualTo("msg_chatcmpl-9");
        assertThat(events.get(2).path("index").asInt()).isZero();
        assertThat(events.get(3).at("/delta/text").asText()).isEqualTo("Hel");
        assertThat(events.get(6).path("index").asInt()).isEqualTo(1);
        assertThat(events.get(6).at("/content_block/type").asText()).isEqualTo("tool_use");
        assertThat(events.get(6).at("/content_block/id").asText()).isEqualTo("call_1");
        assertThat(events.get(7).at("/delta/partial_json").asText()).isEqualTo("{\"a\":1}");
        assertThat(events.get(8).path("index").asInt()).isEqualTo(1);
        assertThat(events.get(9).at("/delta/stop_reason").asText()).isEqualTo("tool_use");
        assertThat(events.get(9).at("/usage/input_tokens").asInt()).isEqualTo(11);
        assertThat(events.get(9).at("/usage/output_tokens").asInt()).isEqualTo(7);
    }

    @Test
    void aStreamThatNeverSaidWhyItStoppedGetsNoMessageStop() throws IOException {
        MessagesEventStream stream = new MessagesEventStream();
        Buffer out = stream.feed(Buffer.buffer(), chunk("{\"role\":\"assistant\",\"content\":\"Hi\"}", null));
        out.appendBuffer(stream.end(Buffer.buffer()));

        assertThat(types(events(out))).doesNotContain("message_delta", "message_stop");
    }

    @Test
    void aBreakIsAnthropicsErrorEvent() throws IOException {
        Buffer error = new MessagesEventStream().error(ErrorBodies.node("cut off", "server_error", null, "stream_interrupted"));
        Buffer timeout = new MessagesEventStream().error(ErrorBodies.node("too slow", "timeout_error", null, "stream_timeout"));

        assertThat(error.toString()).startsWith("event: error\ndata: ");
        assertThat(events(error).getFirst().at("/error/type").asText()).isEqualTo("api_error");
        assertThat(events(error).getFirst().at("/error/message").asText()).isEqualTo("cut off");
        assertThat(events(timeout).getFirst().at("/error/type").asText()).isEqualTo("timeout_error");
    }

    @Test
    void aPassedThroughStreamIsTheUpstreamsBytesCutAtEventBoundaries() {
        PassedThroughStream stream = new PassedThroughStream(new MessagesEventStream());

        assertThat(stream.feed(Buffer.buffer("event: ping\ndata: {\"type\":\"ping\"}\n\nevent: mess"), Buffer.buffer()).toString())
                .isEqualTo("event: ping\ndata: {\"type\":\"ping\"}\n\n");
        assertThat(stream.feed(Buffer.buffer("age_stop\ndata: {}\n\n"), Buffer.buffer()).toString())
                .isEqualTo("event: message_stop\ndata: {}\n\n");
        assertThat(stream.end(Buffer.buffer()).length()).isZero();
        assertThat(stream.error(ErrorBodies.node("x", "server_error", null, null)).toString()).startsWith("event: error\n");
    }
}
