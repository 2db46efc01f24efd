package dev.sluice.edge;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Watches what Vert.x writes on a connection for the end of each answer. It tells the
 * connection's {@link StrictRequestDecoder}, which starts the keep-alive clock from there;
 * and it closes the connection once an answer that says {@code Connection: close} is
 * written, which Vert.x does not do while the request's body is still expected (an answer
 * refusing a body before it was sent, say). It sits between Vert.x's handler and the
 * response encoder, so it sees answers as HTTP objects; it changes nothing it passes on.
 */
final class ResponseEnds extends ChannelOutboundHandlerAdapter {
    static final String NAME = "sluiceResponseEnds";
    private final StrictRequestDecoder decoder;
    private final ChannelHandlerContext decoderContext;
    /** Whether the answer being written says the connection closes after it. */
    private boolean closing;

    ResponseEnds(StrictRequestDecoder decoder, ChannelHandlerContext decoderContext) {
        this.decoder = decoder;
        this.decoderContext = decoderContext;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
            super.write(ctx, msg, promise); // 100 Continue: written whole, and no answer's end
            return;
        }
        if (msg instanceof HttpResponse response) {
            closing = response.headers().containsValue(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE, true);
        }
        boolean ends = msg instanceof LastHttpContent;
        if (ends && closing) {
            promise = promise.unvoid();
            promise.addListener(ChannelFutureListener.CLOSE);
        }
        super.write(ctx, msg, promise);
        if (ends) {
            decoder.answerEnded(decoderContext);
        }
    }
}
