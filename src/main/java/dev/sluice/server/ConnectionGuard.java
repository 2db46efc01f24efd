package dev.sluice.server;

import io.netty.channel.Channel;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * What every new connection goes through before its first byte is read: the strict request
 * decoder takes the place of Vert.x's own. Vert.x exposes no setting for the parser's
 * strictness, so the decoder is swapped in the connection's Netty pipeline, which Vert.x has
 * built but not yet read from when it hands the connection over.
 */
public final class ConnectionGuard {
    private static final String DECODER = "httpDecoder";
    private final HttpServerOptions options;

    public ConnectionGuard(HttpServerOptions options) {
        this.options = options;
    }

    public void accept(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        Channel channel = base.channel();
        if (channel.pipeline().get(DECODER) != null) {
            channel.pipeline().replace(DECODER, DECODER, new StrictRequestDecoder(options));
        }
    }
}
