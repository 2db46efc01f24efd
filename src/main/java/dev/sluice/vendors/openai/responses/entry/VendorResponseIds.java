package dev.sluice.vendors.openai.responses.entry;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The id of a response a deployment's own Responses API made, read from what it answered: the
 * top-level {@code id} of a whole {@code response} object, or {@code response.id} of a stream's
 * events ({@code response.created} comes first). What cannot be read has no id.
 */
final class VendorResponseIds {
    private VendorResponseIds() {}

    /** The top-level {@code id} of a whole answer, read without building the tree of the rest (an answer can be megabytes). */
    static Optional<String> ofWhole(Buffer answer) {
        try (JsonParser parser = Json.MAPPER.getFactory().createParser(answer.getBytes())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("id")) {
                    return value == JsonToken.VALUE_STRING ? Optional.of(parser.getText()) : Optional.empty();
                }
                parser.skipChildren();
            }
            return Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    /** The {@code response.id} of the first event in {@code events} (whole events only) that carries one. */
    static Optional<String> ofEvents(Buffer events) {
        for (SseEvents.SseEvent event : SseEvents.read(events)) {
            try {
                JsonNode id = Json.parse(event.data().getBytes(StandardCharsets.UTF_8)).path("response").path("id");
                if (id.isTextual()) {
                    return Optional.of(id.textValue());
                }
            } catch (IOException notJson) {
                // [DONE] or a comment-like line: no id here
            }
        }
        return Optional.empty();
    }
}
