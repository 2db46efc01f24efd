package dev.sluice.vendors.mock;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * Sends prepared server-sent events over an exchange: each event is its own write, so it
 * is flushed as soon as it is written and a client sees the first chunk before the last is
 * sent. The writer can wait before the first event and between events ({@code slow}), and
 * can drop the connection after a number of events ({@code cut}).
 */
public final class MockStreamWriter {

    /** {@code cutAfter} value for a stream that runs to {@code [DONE]}. */
    public static final int NEVER = Integer.MAX_VALUE;

    private final MockExchange exchange;
    private final List<Buffer> events;
    private final long gapMillis;
    private final int cutAfter;

    /**
     * @param gapMillis the pause between events; 0 writes them back to back
     * @param cutAfter  drop the connection once this many events have left, or {@link #NEVER}
     */
    public MockStreamWriter(MockExchange exchange, List<Buffer> events, long gapMillis, int cutAfter) {
        this.exchange = exchange;
        this.events = events;
        this.gapMillis = gapMillis;
        this.cutAfter = cutAfter;
    }

    public void start(long firstDelayMillis) {
        MockResponses.eventStream(exchange.response());
        exchange.after(firstDelayMillis, () -> sendFrom(0));
    }

    private void sendFrom(int first) {
        int next = first;
        while (next < events.size()) {
            Future<Void> written = exchange.write(events.get(next));
            next++;
            if (next == cutAfter) {
                // Cut only once the events are on the wire; closing at once could drop them unsent.
                written.onComplete(sent -> exchange.cut());
                return;
            }
            if (gapMillis > 0 && next < events.size()) {
                int resume = next;
                exchange.after(gapMillis, () -> sendFrom(resume));
                return;
            }
        }
        exchange.end();
    }
}
