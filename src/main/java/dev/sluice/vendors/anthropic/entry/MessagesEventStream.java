package dev.sluice.vendors.anthropic.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.anthropic.wire.AnthropicStreamEncoder;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.openai.entry.OpenAiChunks;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A stream for a caller of the Messages API from a deployment of another dialect: OpenAI's
 * chunks read into the internal model's events and written as Anthropic's exact sequence,
 * {@code message_start} (then a {@code ping}, as Anthropic sends), each block's start, deltas
 * and stop with consistent indices, and once the upstream has said why it stopped,
 * {@code message_delta} with the stop reason and the usage, and {@code message_stop}. A stream
 * that ends without a reason gets no {@code message_stop}, so the caller sees it was cut.
 */
final class MessagesEventStream implements StreamEncoding {
    private final OpenAiChunks chunks = new OpenAiChunks();
    private final AnthropicStreamEncoder events = AnthropicMessages.streamEncoder();

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return write(decode(openAiEvents), Buffer.buffer());
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        Buffer out = write(decode(openAiEvents), Buffer.buffer());
        for (AnthropicStreamEncoder.Event event : events.finish()) {
            SseEvents.write(out, event.name(), Json.buffer(event.data()));
        }
        return out;
    }

    @Override
    public Buffer keepAlive() {
        return ping();
    }

    private static Buffer ping() {
        return SseEvents.write(Buffer.buffer(), "ping", Buffer.buffer("{\"type\":\"ping\"}"));
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        JsonNode error = openAiError.path("error");
        String type = "timeout_error".equals(error.path("type").asText()) ? "timeout_error" : "api_error";
        return SseEvents.write(Buffer.buffer(), "error", Json.buffer(MessagesErrors.body(type, error.path("message").asText(""))));
    }

    private List<StreamEvent> decode(Buffer openAiEvents) {
        List<StreamEvent> decoded = new ArrayList<>();
        for (StreamEvent read : chunks.read(openAiEvents)) {
            decoded.add(read instanceof StreamEvent.Started started
                    ? new StreamEvent.Started(MessagesAnswers.messageId(started.id()), started.model()) : read);
        }
        return decoded;
    }

    private Buffer write(List<StreamEvent> decoded, Buffer out) {
        for (AnthropicStreamEncoder.Event event : events.encode(decoded)) {
            SseEvents.write(out, event.name(), Json.buffer(event.data()));
            if (event.name().equals("message_start")) {
                out.appendBuffer(ping());
            }
        }
        return out;
    }
}
