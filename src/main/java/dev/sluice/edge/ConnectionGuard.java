package dev.sluice.edge;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What every new connection goes through before its first byte is read: past
 * {@code max_open_connections} in all or {@code max_connections_per_ip} from its address,
 * it is closed at once, costing nothing but the accept. Otherwise the strict request decoder, which also times the request head and the
 * wait between kept-alive requests, takes the place of Vert.x's own. Vert.x exposes no
 * setting for any of this, so the decoder is swapped in the connection's Netty pipeline,
 * which Vert.x has built but not yet read from when it hands the connection over.
 */
public final class ConnectionGuard {
    private static final String DECODER = "httpDecoder";
    private static final String HANDLER = "handler";
    private final HttpServerOptions options;
    private final OpenConnections connections;
    private final Duration headTimeout;
    private final Duration keepAlive;
    private final ConnectionRefusals refusals;

    public ConnectionGuard(HttpServerOptions options, OpenConnections connections, Timeouts timeouts,
            ConnectionRefusals refusals) {
        this.options = options;
        this.connections = connections;
        this.headTimeout = timeouts.head();
        this.keepAlive = timeouts.keepAlive();
        this.refusals = refusals;
    }

    /** How long a head may take to arrive, and how long a kept-alive connection may wait for its next one. */
    public record Timeouts(Duration head, Duration keepAlive) {}

    public void accept(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        Channel channel = base.channel();
        InetAddress address = channel.remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
        OpenConnections.Refusal refusal = connections.tryOpen(address);
        if (refusal != OpenConnections.Refusal.NONE) {
            refusals.refused(refusal);
            channel.close();
            return;
        }
        channel.closeFuture().addListener(closed -> connections.closed(address));
        if (channel.pipeline().get(DECODER) != null) {
            StrictRequestDecoder decoder = new StrictRequestDecoder(options, headTimeout, keepAlive);
            channel.pipeline().replace(DECODER, DECODER, decoder);
            ChannelHandlerContext decoderContext = channel.pipeline().context(decoder);
            if (channel.pipeline().get(HANDLER) != null) {
                channel.pipeline().addBefore(HANDLER, ResponseEnds.NAME, new ResponseEnds(decoder, decoderContext));
            }
            decoder.timeHead(decoderContext);
        }
    }
}
