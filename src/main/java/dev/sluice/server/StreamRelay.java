package dev.sluice.server;

import dev.sluice.api.ErrorBodies;
import dev.sluice.json.Json;
import dev.sluice.upstream.SseEventSplitter;
import dev.sluice.upstream.UpstreamExchange;
import dev.sluice.upstream.UpstreamFailure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;

/**
 * Relays an upstream's server-sent events to the caller event by event, as they arrive:
 * nothing is buffered beyond the event being received. The wait for each chunk is bounded
 * by the stream timeout. If the upstream breaks off or stalls, the caller gets a final
 * {@code data: {"error": ...}} event and no {@code [DONE]}, so it cannot mistake a cut
 * stream for a complete one. Back-pressure runs end to end: a slow caller pauses the
 * upstream read.
 *
 * <p>Events decoded from one upstream read are written to the caller together, at the end of
 * that event-loop turn: the caller gets them at the same moment it would have anyway, in one
 * socket write instead of one per event. A whole short stream (head, events, end) usually
 * leaves in a single write.
 */
final class StreamRelay {
    private final HttpServerResponse client;
    private final UpstreamExchange upstream;
    private final Duration chunkTimeout;
    private final String source;
    private final String stallReason;
    private final SseEventSplitter splitter = new SseEventSplitter();
    private final Promise<StreamOutcome> outcome = Promise.promise();
    private int events;
    /** Whole events received in this event-loop turn and not yet written; null when none. */
    private Buffer pending;
    private boolean flushScheduled;

    /** How a relayed stream ended. */
    enum StreamOutcome { COMPLETED, UPSTREAM_FAILED, CLIENT_GONE }

    /**
     * @param source names the deployment and group in error events, e.g.
     *               {@code deployment 'a1' of model group 'gpt-4o'}
     */
    StreamRelay(HttpServerResponse client, UpstreamExchange upstream, Duration chunkTimeout, String source) {
        this.client = client;
        this.upstream = upstream;
        this.chunkTimeout = chunkTimeout;
        this.source = source;
        this.stallReason = "no stream chunk within " + chunkTimeout.toMillis() + " ms (stream_timeout)";
    }

    /** Starts relaying; the future completes when the stream has ended one way or another. */
    Future<StreamOutcome> start() {
        UpstreamHeaders.copy(upstream.headers(), client);
        client.setStatusCode(upstream.status())
                .setChunked(true)
                .putHeader("Content-Type", "text/event-stream")
                .putHeader("Cache-Control", "no-cache");
        HttpClientResponse stream = upstream.stream();
        armChunkDeadline();
        // The head leaves with the first events if they came in the same read, else alone.
        scheduleFlush(stream);
        stream.handler(chunk -> {
            armChunkDeadline();
            Buffer whole = splitter.feed(chunk);
            if (whole.length() > 0) {
                events++;
                hold(whole);
                scheduleFlush(stream);
            }
        });
        stream.endHandler(v -> {
            upstream.finish();
            hold(splitter.remainder());
            client.end(takePending());
            outcome.tryComplete(StreamOutcome.COMPLETED);
        });
        stream.exceptionHandler(t -> {
            if (outcome.future().isComplete()) {
                return;
            }
            UpstreamFailure failure = upstream.failure(t);
            if (client.closed()) {
                outcome.tryComplete(StreamOutcome.CLIENT_GONE);
                return;
            }
            client.end(takePending().appendBuffer(errorEvent(failure)));
            outcome.tryComplete(StreamOutcome.UPSTREAM_FAILED);
        });
        return outcome.future();
    }

    /** The caller hung up: stop the upstream at once. */
    void clientGone() {
        if (outcome.tryComplete(StreamOutcome.CLIENT_GONE)) {
            upstream.cancel();
        }
    }

    private void hold(Buffer events) {
        if (events.length() == 0) {
            return;
        }
        if (pending == null) {
            pending = events;
        } else {
            pending = Buffer.buffer(pending.length() + events.length()).appendBuffer(pending).appendBuffer(events);
        }
    }

    private Buffer takePending() {
        Buffer held = pending == null ? Buffer.buffer() : pending;
        pending = null;
        return held;
    }

    /** Runs {@link #flush} once, after the events of the current upstream read have arrived. */
    private void scheduleFlush(HttpClientResponse stream) {
        if (!flushScheduled) {
            flushScheduled = true;
            Vertx.currentContext().runOnContext(v -> flush(stream));
        }
    }

    private void flush(HttpClientResponse stream) {
        flushScheduled = false;
        if (outcome.future().isComplete() || client.ended()) {
            return;
        }
        if (pending == null) {
            if (!client.headWritten()) {
                client.writeHead();
            }
            return;
        }
        client.write(takePending());
        if (client.writeQueueFull()) {
            // The caller is the slow side: the upstream is not stalling, so its stall
            // deadline waits until the caller has caught up.
            stream.pause();
            upstream.clearDeadline();
            client.drainHandler(v -> {
                armChunkDeadline();
                stream.resume();
            });
        }
    }

    private void armChunkDeadline() {
        upstream.armDeadline(chunkTimeout.toMillis(), stallReason);
    }

    private Buffer errorEvent(UpstreamFailure failure) {
        boolean timeout = failure.kind() == UpstreamFailure.Kind.TIMEOUT;
        String message = "Sluice: the stream from " + source + " broke off after " + events + " event(s): " + failure.getMessage();
        Buffer event = Buffer.buffer("data: ");
        event.appendBuffer(Json.buffer(ErrorBodies.node(message, timeout ? "timeout_error" : "server_error", null,
                timeout ? "stream_timeout" : "stream_interrupted")));
        return event.appendString("\n\n");
    }
}
