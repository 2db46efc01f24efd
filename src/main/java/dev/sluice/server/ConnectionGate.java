package dev.sluice.server;

import io.netty.channel.Channel;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every client connection passes here as it opens: it gets the {@link StrictRequestDecoder},
 * and it is counted against a bound shared by all the event loops' servers (they share one
 * port, so only a count across them bounds the process). A connection over the bound is
 * answered 503 with {@code Retry-After} and closed at once. There is no bound per address:
 * a load balancer holds thousands of streams open from one address.
 */
public final class ConnectionGate {
    private static final byte[] TOO_MANY = StrictRequestDecoder.answer(503, "Service Unavailable", "service_unavailable",
            "This gateway holds as many open connections as it may (general_settings.max_open_connections); retry shortly.",
            "too_many_connections", "Retry-After: 1\r\n");

    private final int max;
    private final Duration headTimeout;
    private final AtomicInteger open = new AtomicInteger();

    public ConnectionGate(int max, Duration headTimeout) {
        this.max = max;
        this.headTimeout = headTimeout;
    }

    /** The connections open now. */
    public int open() {
        return open.get();
    }

    /** Counts a connection that just opened, or refuses it; fits the strict parser to the ones let in. */
    public void accept(HttpConnection connection, HttpServerOptions options) {
        if (!(connection instanceof ConnectionBase base)) {
            return; // not an HTTP/1.1 connection over Netty: nothing to fit
        }
        Channel channel = base.channel();
        if (channel.pipeline().get("httpDecoder") == null) {
            return;
        }
        StrictRequestDecoder decoder = new StrictRequestDecoder(options, headTimeout);
        channel.pipeline().replace("httpDecoder", "httpDecoder", decoder);
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            decoder.answerAndClose(channel.pipeline().context(decoder), TOO_MANY);
            return;
        }
        channel.closeFuture().addListener(closed -> open.decrementAndGet());
    }
}
