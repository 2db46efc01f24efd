package dev.sluice.edge;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Vert.x's request decoder, made strict where a lenient parser lets a request be smuggled past
 * a proxy that reads the same bytes another way (RFC 9112 §6.1, §6.3, §5.2): a head with both
 * {@code Content-Length} and {@code Transfer-Encoding}, a {@code Transfer-Encoding} other than
 * plain {@code chunked}, or a folded header line is refused. The refusal reaches Vert.x as a
 * request the parser could not read, so {@link MalformedRequests} answers it and closes the
 * connection; every byte after it is dropped, so nothing sent behind it is ever run.
 *
 * <p>It also keeps the two clocks of a connection between requests, which Vert.x's idle
 * timeout cannot keep (it also runs while a stream waits on a silent upstream, so it must be
 * long): a head must be whole within the head timeout of its first byte, and a kept-alive
 * connection whose last answer ended is closed when no new request starts within the
 * keep-alive timeout ({@link ResponseEnds} says when an answer ends).
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {
    /** Between the first byte of a head and its end; false while a body is read or between requests. */
    private boolean inHead = true;
    /** Whether the current head's request line has been seen whole: every later line is a header line. */
    private boolean requestLineSeen;
    /** Set once a request has been refused: the rest of the connection's bytes are dropped. */
    private boolean refused;
    private final long headTimeoutNanos;
    private final long keepAliveNanos;
    /** Runs out when the head now arriving is late; null between requests and while a body is read. */
    private ScheduledFuture<?> headTimer;
    /** Runs out when a kept-alive connection has waited too long for its next request; null otherwise. */
    private ScheduledFuture<?> keepAliveTimer;
    /** Requests whose head was read and whose answer has not ended. */
    private int unanswered;

    StrictRequestDecoder(HttpServerOptions options, Duration headTimeout, Duration keepAlive) {
        super(options);
        this.headTimeoutNanos = headTimeout.toNanos();
        this.keepAliveNanos = keepAlive.toNanos();
    }

    /**
     * An answer has ended on this connection. Once no request is under way, the connection has
     * the keep-alive timeout to start another, or, when its answer went out before its body
     * had all arrived (a refusal), to go on sending that body; a next head already begun is
     * timed as a head from now.
     */
    void answerEnded(ChannelHandlerContext ctx) {
        unanswered = Math.max(0, unanswered - 1);
        if (unanswered > 0 || refused) {
            return;
        }
        if (inHead && internalBuffer().isReadable()) {
            timeHead(ctx);
        } else {
            keepAlive(ctx);
        }
    }

    /** (Re)starts the keep-alive clock: nothing is under way, and nothing may stay so for long. */
    private void keepAlive(ChannelHandlerContext ctx) {
        stopKeepAliveTimer();
        if (!refused && headTimer == null) {
            keepAliveTimer = ctx.executor().schedule(() -> keptAliveTooLong(ctx), keepAliveNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void keptAliveTooLong(ChannelHandlerContext ctx) {
        keepAliveTimer = null;
        if (unanswered == 0 && headTimer == null) {
            ctx.close();
        }
    }

    private void stopKeepAliveTimer() {
        if (keepAliveTimer != null) {
            keepAliveTimer.cancel(false);
            keepAliveTimer = null;
        }
    }

    /**
     * Starts the clock on a head: the first one from when the connection opens, a later one
     * from its first byte. The idle timeout cannot do this, since each byte trickled in resets it.
     */
    void timeHead(ChannelHandlerContext ctx) {
        if (headTimer == null && !refused) {
            headTimer = ctx.executor().schedule(() -> headTimedOut(ctx), headTimeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void headTimedOut(ChannelHandlerContext ctx) {
        headTimer = null;
        if (inHead && !refused && ctx.channel().isActive()) {
            refused = true;
            ctx.fireChannelRead(unreadable(new RequestHeadTimeoutException(
                    Math.max(1, TimeUnit.NANOSECONDS.toSeconds(headTimeoutNanos)))));
            ctx.fireChannelReadComplete();
        }
    }

    private void stopHeadTimer() {
        if (headTimer != null) {
            headTimer.cancel(false);
            headTimer = null;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        stopHeadTimer();
        stopKeepAliveTimer();
        super.handlerRemoved0(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.isReadable()) {
            if (inHead) {
                stopKeepAliveTimer();
                if (unanswered == 0) {
                    timeHead(ctx); // a head behind one still being answered is timed once that answer ends
                }
            } else if (unanswered == 0) {
                keepAlive(ctx); // the body of a request already answered: each byte gives it the timeout again
            }
        }
        if (inHead && hasFoldedLine(in)) {
            refuse(in, out, new RequestFramingException("a header line is folded (obs-fold)"));
            return;
        }
        int before = out.size();
        super.decode(ctx, in, out);
        for (int i = before; i < out.size(); i++) {
            Object decoded = out.get(i);
            if (decoded instanceof HttpRequest request) {
                stopHeadTimer();
                unanswered++;
                refused |= request.decoderResult().isFailure(); // the parser drops what follows too
                inHead = false;
                requestLineSeen = false;
            }
            if (decoded instanceof LastHttpContent) {
                inHead = true;
                if (unanswered == 0 && !refused) {
                    keepAlive(ctx); // answered before its body ended: now it waits for its next request
                }
            }
        }
    }

    /**
     * Looks at the whole lines of the head that have arrived (the parser takes every whole line
     * it is given, so each call starts at a line it has not seen): after the request line, a
     * line that starts with a space or a tab continues the one before it.
     */
    private boolean hasFoldedLine(ByteBuf in) {
        int at = in.readerIndex();
        int end = in.writerIndex();
        while (at < end) {
            if (!requestLineSeen) {
                if ((in.getByte(at) & 0xff) <= ' ') {
                    at++; // the parser skips what comes before a request line the same way
                    continue;
                }
                int lineEnd = in.indexOf(at, end, (byte) '\n');
                if (lineEnd < 0) {
                    return false;
                }
                requestLineSeen = true;
                at = lineEnd + 1;
                continue;
            }
            byte first = in.getByte(at);
            if (first == ' ' || first == '\t') {
                return true;
            }
            int lineEnd = in.indexOf(at, end, (byte) '\n');
            if (lineEnd < 0 || lineEnd == at || lineEnd == at + 1 && first == '\r') {
                return false; // not whole yet, or the empty line that ends the head
            }
            at = lineEnd + 1;
        }
        return false;
    }

    /** Checked once the headers are read and before the body's framing is chosen from them. */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        HttpHeaders headers = message.headers();
        List<String> codings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!codings.isEmpty()) {
            if (headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                throw new RequestFramingException("Content-Length and Transfer-Encoding are both given");
            }
            if (codings.size() != 1 || !"chunked".equalsIgnoreCase(codings.get(0).strip())) {
                throw new RequestFramingException("Transfer-Encoding must be exactly chunked");
            }
            if (message.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
                throw new RequestFramingException("Transfer-Encoding is not part of HTTP/1.0");
            }
        }
        return super.isContentAlwaysEmpty(message);
    }

    private void refuse(ByteBuf in, List<Object> out, RuntimeException cause) {
        refused = true;
        stopHeadTimer();
        stopKeepAliveTimer();
        in.skipBytes(in.readableBytes());
        out.add(unreadable(cause));
    }

    /** What the parser hands on for a request it could not read: Vert.x sends it to the invalid-request handler. */
    static HttpRequest unreadable(RuntimeException cause) {
        DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/bad-request");
        request.setDecoderResult(DecoderResult.failure(cause));
        return request;
    }
}
