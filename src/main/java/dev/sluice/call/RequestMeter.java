package dev.sluice.call;

import dev.sluice.metrics.GatewayMetrics;
import dev.sluice.tracing.GatewayTracing;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One model call as the metrics and traces see it: counted in flight (and its span open) from
 * its arrival, and ended once, by its answer's end or, when the caller leaves first, by the
 * closed connection.
 */
final class RequestMeter {
    private final GatewayMetrics metrics;
    private final Optional<GatewayTracing> tracing;
    private final String route;
    private final String callId;
    private final LongSupplier nanoTime;
    private final long arrived;
    private final AtomicBoolean ended = new AtomicBoolean();

    /** @param header the request's header of a name (null when absent), for a caller's trace context */
    RequestMeter(GatewayMetrics metrics, Optional<GatewayTracing> tracing, String route, String path, String callId,
            Function<String, String> header, LongSupplier nanoTime) {
        this.metrics = metrics;
        this.tracing = tracing;
        this.route = route;
        this.callId = callId;
        this.nanoTime = nanoTime;
        this.arrived = nanoTime.getAsLong();
        metrics.requestStarted();
        tracing.ifPresent(t -> t.requestStarted(callId, path, header));
    }

    /** The call ended with {@code status}; only the first end counts. */
    void ended(int status) {
        if (ended.compareAndSet(false, true)) {
            metrics.requestEnded(route, status, nanoTime.getAsLong() - arrived);
            tracing.ifPresent(t -> t.requestEnded(callId, status));
        }
    }
}
