package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.gemini.wire.GeminiBlocked;
import dev.sluice.vendors.gemini.wire.GeminiChunkDecoder;
import dev.sluice.vendors.stream.EventDecoder;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.wire.Json;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The {@code data:} events of {@code streamGenerateContent?alt=sse}, each a whole
 * {@code GenerateContentResponse}, as internal stream events. An event holding Google's
 * {@code {"error": ...}} fails the stream classified like the same error answered with its
 * {@code code} as the status; a blocked prompt fails it as a content-policy refusal.
 */
record GeminiEventDecoder(GeminiChunkDecoder chunks, Clock clock) implements EventDecoder {
    @Override
    public List<StreamEvent> decode(Frame frame) {
        JsonNode chunk;
        try {
            chunk = Json.parse(frame.payload());
        } catch (IOException e) {
            throw new StreamFailure(Failure.of(FailureClass.SERVER, "Gemini sent a stream event that is not JSON"));
        }
        if (chunk.isArray()) {
            chunk = chunk.path(0);
        }
        if (chunk.has("error")) {
            int status = chunk.path("error").path("code").asInt(500);
            throw new StreamFailure(GoogleErrors.classify(status, Buffer.buffer(frame.payload()), MultiMap.caseInsensitiveMultiMap(),
                    clock.instant()));
        }
        try {
            return chunks.decode(chunk);
        } catch (GeminiBlocked blocked) {
            throw new StreamFailure(GoogleErrors.blocked(blocked));
        } catch (IllegalArgumentException unreadable) {
            throw new StreamFailure(new Failure(FailureClass.SERVER, 200, Buffer.buffer(frame.payload()), Optional.empty(),
                    "Gemini sent a stream event that cannot be read: " + unreadable.getMessage()));
        }
    }
}
