package dev.sluice.vendors.openai.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;

/** A stream for a caller of OpenAI's chat completions: the chunks as the gateway reads them. */
public enum OpenAiStreamEncoding implements StreamEncoding {
    INSTANCE;

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return openAiEvents;
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        return openAiEvents;
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        return Buffer.buffer("data: ").appendBuffer(Json.buffer(openAiError)).appendString("\n\n");
    }
}
