package dev.sluice.call;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.call.cache.ResponseCache;
import dev.sluice.vendors.entry.StreamEncoding;
import dev.sluice.vendors.entry.WatchedStreamEncoding;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * A stream's encoding that keeps a copy of every event it writes for the caller, and hands the
 * whole copy on when the stream has ended cleanly: {@link #settled()} is asked only then, and
 * the stream's last bytes wait for it. Only a stream that ends with {@code data: [DONE]} is
 * handed on, since a replay must end as the caller's SDK expects; keep-alive and error events
 * are never in the copy.
 *
 * <p>The copy's bytes are held against the cache's bound for all copies under way, and against
 * the largest answer it stores: past either it is given up (the stream is served and not
 * stored). {@link #release()} gives back what it held; it runs when the call ends, however.
 */
final class StreamCopy extends WatchedStreamEncoding {
    private static final byte[] DONE = "data: [DONE]".getBytes(StandardCharsets.US_ASCII);

    private final ResponseCache cache;
    private final Function<byte[], Future<Void>> onComplete;
    private Buffer copy = Buffer.buffer();
    private long held;

    /** @param onComplete given the whole stream as the caller got it; its future holds the stream's last bytes */
    StreamCopy(StreamEncoding encoding, ResponseCache cache, Function<byte[], Future<Void>> onComplete) {
        super(encoding);
        this.cache = cache;
        this.onComplete = onComplete;
    }

    /** Copies what the caller is sent, while the copy stays within its bounds. */
    @Override
    protected Buffer seen(Buffer events) {
        if (copy != null && events.length() > 0) {
            if (copy.length() + events.length() > cache.maxItemBytes() || !cache.holdCopy(events.length())) {
                release();
            } else {
                held += events.length();
                copy.appendBuffer(events);
            }
        }
        return events;
    }

    @Override
    public Buffer error(ObjectNode openAiError) {
        release(); // a stream that ends with an error is not an answer to keep
        return encoding.error(openAiError);
    }

    @Override
    public Future<Void> settled() {
        Future<Void> kept = encoding.settled();
        if (copy == null || !endsWithDone(copy)) {
            release();
            return kept;
        }
        byte[] whole = copy.getBytes();
        release();
        return kept.transform(done -> onComplete.apply(whole)).transform(stored -> kept);
    }

    /** Gives the copy up, and back what it held. Idempotent. */
    void release() {
        copy = null;
        cache.releaseCopy(held);
        held = 0;
    }

    private static boolean endsWithDone(Buffer events) {
        int end = events.length();
        while (end > 0 && Character.isWhitespace(events.getByte(end - 1))) {
            end--;
        }
        if (end < DONE.length) {
            return false;
        }
        for (int i = 0; i < DONE.length; i++) {
            if (events.getByte(end - DONE.length + i) != DONE[i]) {
                return false;
            }
        }
        return true;
    }
}
