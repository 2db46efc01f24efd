package dev.sluice.server;

import dev.sluice.metrics.GatewayMetrics;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * One model call as the metrics see it: counted in flight from its arrival, and ended once,
 * by its answer's end or, when the caller leaves first, by the closed connection.
 */
final class RequestMeter {
    private final GatewayMetrics metrics;
    private final String route;
    private final LongSupplier nanoTime;
    private final long arrived;
    private final AtomicBoolean ended = new AtomicBoolean();

    RequestMeter(GatewayMetrics metrics, String route, LongSupplier nanoTime) {
        this.metrics = metrics;
        this.route = route;
        this.nanoTime = nanoTime;
        this.arrived = nanoTime.getAsLong();
        metrics.requestStarted();
    }

    /** The call ended with {@code status}; only the first end counts. */
    void ended(int status) {
        if (ended.compareAndSet(false, true)) {
            metrics.requestEnded(route, status, nanoTime.getAsLong() - arrived);
        }
    }
}
