package dev.sluice.vendors.bedrock.mock;

import dev.sluice.vendors.mock.MockExchange;
import dev.sluice.vendors.mock.MockStreamWriter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.UUID;

/**
 * Sends ConverseStream frames over an exchange as {@code application/vnd.amazon.eventstream},
 * each frame its own write so a client reads the first before the last is sent; it can wait
 * before the first frame and between frames ({@code slow}) and drop the connection after a
 * number of frames ({@code cut}).
 */
final class BedrockMockStream {
    static final String CONTENT_TYPE = "application/vnd.amazon.eventstream";

    private final MockExchange exchange;
    private final List<Buffer> frames;
    private final long gapMillis;
    private final int cutAfter;

    /** @param cutAfter drop the connection once this many frames have left, or {@link MockStreamWriter#NEVER} */
    BedrockMockStream(MockExchange exchange, List<Buffer> frames, long gapMillis, int cutAfter) {
        this.exchange = exchange;
        this.frames = frames;
        this.gapMillis = gapMillis;
        this.cutAfter = cutAfter;
    }

    void start(long firstDelayMillis) {
        exchange.response().setChunked(true)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.after(firstDelayMillis, () -> sendFrom(0));
    }

    private void sendFrom(int first) {
        int next = first;
        while (next < frames.size()) {
            Future<Void> written = exchange.write(frames.get(next));
            next++;
            if (next == cutAfter) {
                written.onComplete(sent -> exchange.cut());
                return;
            }
            if (gapMillis > 0 && next < frames.size()) {
                int resume = next;
                exchange.after(gapMillis, () -> sendFrom(resume));
                return;
            }
        }
        exchange.end();
    }
}
