package dev.sluice.call;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps a relayed stream audible: a caller whose entry API has a keep-alive event
 * (Anthropic's {@code ping}) is sent one whenever the stream has been silent for the
 * interval, from the commit until the stream ends. Used on the stream's event loop.
 */
final class StreamKeepAlive {
    private final HttpServerResponse client;
    private final Buffer event;
    private final long everyNanos;
    private final LongSupplier nanoTime;
    private long lastWrite;

    /** @param event the keep-alive event; empty for none */
    StreamKeepAlive(HttpServerResponse client, Buffer event, long everyNanos, LongSupplier nanoTime) {
        this.client = client;
        this.event = event;
        this.everyNanos = everyNanos;
        this.nanoTime = nanoTime;
    }

    /** The stream was committed: keep-alives are due from now until {@code ended} completes. */
    void start(Future<?> ended) {
        lastWrite = nanoTime.getAsLong();
        if (event.length() == 0 || everyNanos <= 0) {
            return;
        }
        Vertx vertx = Vertx.currentContext().owner();
        long timer = vertx.setPeriodic(Math.max(1, TimeUnit.NANOSECONDS.toMillis(everyNanos) / 2), id -> {
            if (!ended.isComplete() && !client.ended() && !client.writeQueueFull()
                    && nanoTime.getAsLong() - lastWrite >= everyNanos) {
                client.write(event.copy());
                lastWrite = nanoTime.getAsLong();
            }
        });
        ended.onComplete(done -> vertx.cancelTimer(timer));
    }

    /** Something was written to the caller: silence is counted from now. */
    void wrote() {
        lastWrite = nanoTime.getAsLong();
    }
}
