package dev.sluice.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.ingress.StreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.function.Function;

/**
 * A stream's encoding that keeps a copy of every event it writes for the caller, and hands the
 * whole copy on when the stream has ended cleanly: {@link #settled()} is asked only then, and
 * the stream's last bytes wait for it. The copy is given up once it outgrows {@code maxBytes}
 * (such a stream is not stored); keep-alive and error events are never in it.
 */
final class StreamCopy implements StreamEncoding {
    private final StreamEncoding encoding;
    private final long maxBytes;
    private final Function<byte[], Future<Void>> onComplete;
    private Buffer copy = Buffer.buffer();

    /** @param onComplete given the whole stream as the caller got it; its future holds the stream's last bytes */
    StreamCopy(StreamEncoding encoding, long maxBytes, Function<byte[], Future<Void>> onComplete) {
        this.encoding = encoding;
        this.maxBytes = maxBytes;
        this.onComplete = onComplete;
    }

    @Override
    public Buffer feed(Buffer upstream, Buffer openAiEvents) {
        return copied(encoding.feed(upstream, openAiEvents));
    }

    @Override
    public Buffer end(Buffer openAiEvents) {
        return copied(encoding.end(openAiEvents));
    }

    private Buffer copied(Buffer events) {
        if (copy != null && events.length() > 0) {
            if (copy.length() + events.length() > maxBytes) {
                copy = null;
            } else {
                copy.appendBuffer(events);
            }
        }
        return events;
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        copy = null; // a stream that ends with an error is not an answer to keep
        return encoding.error(openAiError);
    }

    @Override
    public Buffer keepAlive() {
        return encoding.keepAlive();
    }

    @Override
    public boolean relaysVendorErrors() {
        return encoding.relaysVendorErrors();
    }

    @Override
    public Future<Void> settled() {
        Future<Void> kept = encoding.settled();
        if (copy == null) {
            return kept;
        }
        byte[] whole = copy.getBytes();
        copy = null;
        return kept.transform(done -> onComplete.apply(whole)).transform(stored -> kept);
    }
}
