package dev.sluice.vendors.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;

/**
 * A stream's encoding that writes as {@code encoding} does and looks at what it wrote for the
 * caller: every piece the caller is sent passes {@link #seen} on its way out. A subclass
 * changes only what it watches for (an id to claim, a copy to keep); what it writes stays
 * the wrapped encoding's.
 */
public abstract class WatchedStreamEncoding implements StreamEncoding {
    protected final StreamEncoding encoding;

    protected WatchedStreamEncoding(StreamEncoding encoding) {
        this.encoding = encoding;
    }

    /** The caller's events for one piece of the stream, as the encoding wrote them; returns them as they are. */
    protected abstract Buffer seen(Buffer events);

    @Override
    public final Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return seen(encoding.feed(upstream, openAiEvents));
    }

    @Override
    public final Buffer end(Buffer openAiEvents) {
        return seen(encoding.end(openAiEvents));
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        return encoding.error(openAiError);
    }

    @Override
    public final Buffer keepAlive() {
        return encoding.keepAlive();
    }

    @Override
    public final boolean relaysVendorErrors() {
        return encoding.relaysVendorErrors();
    }

    @Override
    public Future<Void> settled() {
        return encoding.settled();
    }
}
