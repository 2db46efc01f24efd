package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.openai.entry.OpenAiChunks;
import dev.sluice.vendors.openai.responses.ResponseMeta;
import dev.sluice.vendors.openai.responses.ResponsesApi;
import dev.sluice.vendors.openai.responses.ResponsesRequest;
import dev.sluice.vendors.openai.responses.ResponsesStreamEncoder;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * A stream for a caller of the Responses API from a deployment called with chat completions:
 * the chunks read into the internal model's events and written as the Responses API's event
 * sequence ({@code response.created}, {@code response.in_progress}, each output item's events,
 * then {@code response.completed} or {@code response.incomplete} with the whole response, which
 * is kept for a follow-up). A stream that never said why it stopped gets no closing event,
 * so the gateway's {@code response.failed} after it is the last word.
 */
final class ResponsesEventStream implements StreamEncoding {
    private final OpenAiChunks chunks = new OpenAiChunks();
    private final ResponsesStreamEncoder encoder;
    private final ResponsesRequest request;
    private final ResponseKeeper keeper;
    private boolean finished;

    ResponsesEventStream(ResponsesRequest request, ResponseMeta meta, ResponseKeeper keeper) {
        this.encoder = ResponsesApi.streamEncoder(request, meta);
        this.request = request;
        this.keeper = keeper;
    }

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return write(encoder.encode(read(openAiEvents)), Buffer.buffer());
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        Buffer out = write(encoder.encode(read(openAiEvents)), Buffer.buffer());
        if (!finished) {
            return out;
        }
        List<ResponsesStreamEncoder.Event> closing = encoder.finish();
        write(closing, out);
        JsonNode response = closing.getLast().data().path("response");
        if (response instanceof ObjectNode whole) {
            keeper.keep(request, ResponsesApi.decodeResponse(whole), whole);
        }
        return out;
    }

    @Override
    public Future<Void> settled() {
        return keeper.kept();
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        JsonNode error = openAiError.path("error");
        String code = error.path("code").asText(error.path("type").asText("server_error"));
        return write(List.of(encoder.failed(code, error.path("message").asText(""))), Buffer.buffer());
    }

    private List<StreamEvent> read(Buffer openAiEvents) {
        List<StreamEvent> events = chunks.read(openAiEvents);
        for (StreamEvent event : events) {
            finished |= event instanceof StreamEvent.Finished;
        }
        return events;
    }

    private static Buffer write(List<ResponsesStreamEncoder.Event> events, Buffer out) {
        for (ResponsesStreamEncoder.Event event : events) {
            SseEvents.write(out, event.name(), Json.buffer(event.data()));
        }
        return out;
    }
}
