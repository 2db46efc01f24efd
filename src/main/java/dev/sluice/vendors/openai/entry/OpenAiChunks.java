package dev.sluice.vendors.openai.entry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.StreamEvent;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.openai.wire.OpenAiChatChunkDecoder;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one stream's OpenAI chat-completion chunks, as the gateway reads every stream, into the
 * internal model's events, for an entry API that writes them in its own dialect. One per stream.
 */
public final class OpenAiChunks {
    private final OpenAiChatChunkDecoder chunks = OpenAiChat.chunkDecoder();

    /**
     * The events that whole chunks in {@code openAiEvents} mean, in order; {@code [DONE]} means none.
     *
     * @throws IllegalArgumentException when a chunk is not JSON or not a chunk
     */
    public List<StreamEvent> read(Buffer openAiEvents) {
        List<StreamEvent> decoded = new ArrayList<>();
        for (SseEvents.SseEvent event : SseEvents.read(openAiEvents)) {
            if (event.data().equals("[DONE]")) {
                continue;
            }
            JsonNode chunk;
            try {
                chunk = Json.parse(event.data().getBytes(StandardCharsets.UTF_8));
            } catch (IOException unreadable) {
                throw new IllegalArgumentException("a stream event that is not JSON: " + unreadable.getMessage(), unreadable);
            }
            decoded.addAll(chunks.decode(chunk));
        }
        return decoded;
    }
}
