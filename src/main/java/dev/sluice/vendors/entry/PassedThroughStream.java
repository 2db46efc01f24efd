package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.SseEventSplitter;
import io.vertx.core.buffer.Buffer;

/**
 * A stream from a deployment that speaks the caller's dialect and was sent its own body: the
 * upstream's events go to the caller as they came, cut only at event boundaries so that an
 * error event written after them parses cleanly. Only that error event is the gateway's,
 * written as the caller's dialect writes errors.
 */
public final class PassedThroughStream implements StreamEncoding {
    private final SseEventSplitter splitter = new SseEventSplitter();
    private final StreamEncoding errors;

    /** @param errors writes the error event that ends a stream broken off */
    public PassedThroughStream(StreamEncoding errors) {
        this.errors = errors;
    }

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return splitter.feed(upstream);
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        return splitter.remainder();
    }

    @Override
    public boolean relaysVendorErrors() {
        return true;
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        return errors.error(openAiError);
    }
}
