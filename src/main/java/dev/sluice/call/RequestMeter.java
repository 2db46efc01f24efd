package dev.sluice.call;

import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.tracing.GatewayTracing;
import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * One model call as the metrics and traces see it: counted in flight (and its span open) from
 * its arrival, and ended once, by its answer's end or, when the caller leaves first, by the
 * closed connection (or by the gateway's stop cutting an answer already under way).
 */
final class RequestMeter implements CallListener {
    private final GatewayMetrics metrics;
    private final Optional<GatewayTracing> tracing;
    private final String route;
    private final String callId;
    private final LongSupplier nanoTime;
    private final long arrived;
    private final AtomicBoolean ended = new AtomicBoolean();

    /** @param route the route's name in metrics, e.g. {@code chat_completions} */
    RequestMeter(GatewayMetrics metrics, Optional<GatewayTracing> tracing, LongSupplier nanoTime, String route,
            HttpServerRequest request, String callId) {
        this.metrics = metrics;
        this.tracing = tracing;
        this.route = route;
        this.callId = callId;
        this.nanoTime = nanoTime;
        this.arrived = nanoTime.getAsLong();
        metrics.requestStarted();
        // The caller's own trace context, when it sent one, is joined.
        tracing.ifPresent(t -> t.requestStarted(callId, request.path(), request::getHeader));
    }

    @Override
    public void cutAfterHead(int status) {
        ended(status);
    }

    /** The call ended with {@code status}; only the first end counts. */
    @Override
    public void ended(int status) {
        if (ended.compareAndSet(false, true)) {
            metrics.requestEnded(route, status, nanoTime.getAsLong() - arrived);
            tracing.ifPresent(t -> t.requestEnded(callId, status));
        }
    }
}
