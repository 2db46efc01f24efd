package dev.sluice.server;

import dev.sluice.api.ErrorBodies;
import dev.sluice.json.Json;
import dev.sluice.upstream.SseEventSplitter;
import dev.sluice.upstream.UpstreamExchange;
import dev.sluice.upstream.UpstreamFailure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
        client.writeHead();
        HttpClientResponse stream = upstream.stream();
        armChunkDeadline();
        stream.handler(chunk -> {
            armChunkDeadline();
            Buffer whole = splitter.feed(chunk);
            if (whole.length() > 0) {
                events++;
                client.write(whole);
                if (client.writeQueueFull()) {
                    // The caller is the slow side: the upstream is not stalling, so its
                    // stall deadline waits until the caller has caught up.
                    stream.pause();
                    upstream.clearDeadline();
                    client.drainHandler(v -> {
                        armChunkDeadline();
                        stream.resume();
                    });
                }
            }
        });
        stream.endHandler(v -> {
            upstream.finish();
            Buffer rest = splitter.remainder();
            if (rest.length() > 0) {
                client.write(rest);
            }
            client.end();
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
            client.end(errorEvent(failure));
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
