package dev.sluice.server;

import io.netty.channel.Channel;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;
import java.time.Duration;

/**
 * What every new connection goes through before its first byte is read: past
 * {@code max_open_connections} it is closed at once; otherwise the strict request decoder,
 * which also times the request head, takes the place of Vert.x's own. Vert.x exposes no
 * setting for either, so the decoder is swapped in the connection's Netty pipeline, which
 * Vert.x has built but not yet read from when it hands the connection over.
 */
public final class ConnectionGuard {
    private static final String DECODER = "httpDecoder";
    private final HttpServerOptions options;
    private final OpenConnections connections;
    private final Duration headTimeout;

    public ConnectionGuard(HttpServerOptions options, OpenConnections connections, Duration headTimeout) {
        this.options = options;
        this.connections = connections;
        this.headTimeout = headTimeout;
    }

    public void accept(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        Channel channel = base.channel();
        if (!connections.tryOpen()) {
            channel.close();
            return;
        }
        channel.closeFuture().addListener(closed -> connections.closed());
        if (channel.pipeline().get(DECODER) != null) {
            StrictRequestDecoder decoder = new StrictRequestDecoder(options, headTimeout);
            channel.pipeline().replace(DECODER, DECODER, decoder);
            decoder.timeHead(channel.pipeline().context(decoder));
        }
    }
}
