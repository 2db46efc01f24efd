package dev.sluice.vendors.stream;

import dev.sluice.wire.SseEventSplitter;
import io.vertx.core.buffer.Buffer;

/** An OpenAI-speaking upstream's stream: relayed as written, cut only at event boundaries. */
final class SsePassthrough implements StreamTranslator {
    private final SseEventSplitter splitter = new SseEventSplitter();

    @Override
    public Buffer feed(Buffer chunk) {
        return splitter.feed(chunk);
    }

    @Override
    public Buffer end() {
        return splitter.remainder();
    }
}
