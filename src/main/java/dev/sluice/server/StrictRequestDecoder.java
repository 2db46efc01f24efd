package dev.sluice.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/1.1 request parser with RFC 9112's framing rules held strictly, so that Sluice behind
 * another proxy cannot be used to smuggle a second request inside the first: a request with
 * both {@code Content-Length} and {@code Transfer-Encoding}, a {@code Transfer-Encoding} other
 * than {@code chunked}, or a folded header line (obs-fold) is refused (400, then the
 * connection is closed, see {@link MalformedRequests}). It also cuts a request head that is
 * not complete within the head timeout: the idle timeout never fires while bytes keep
 * trickling in, one a second.
 */
public final class StrictRequestDecoder extends VertxHttpRequestDecoder {
    /** What a late head is answered with: it never reached a route, so it is written as bytes here. */
    private static final byte[] HEAD_TIMEOUT_ANSWER = answer(408, "Request Timeout", "timeout_error",
            "The request head (request line and headers) did not arrive in time.", "request_head_timeout", "");

    /** Framing another parser could read differently; the message says which rule was broken, never quoting the request. */
    static final class AmbiguousFraming extends IllegalArgumentException {
        AmbiguousFraming(String rule) {
            super(rule);
        }
    }

    /** How long a refused connection is read (and dropped) after its answer, so the client gets the answer. */
    private static final long LINGER_SECONDS = 2;

    private final long headTimeoutNanos;
    /** Between requests or reading a head: the parser has not yet given out this request's head. */
    private boolean readingHead = true;
    /** Part of the head (a non-empty line) was already parsed before the bytes now buffered. */
    private boolean headStarted;
    private ScheduledFuture<?> headTimer;
    /** A request on this connection was refused: nothing after it is parsed. */
    private boolean refused;

    public StrictRequestDecoder(HttpServerOptions options, Duration headTimeout) {
        super(options);
        this.headTimeoutNanos = headTimeout.toNanos();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (refused) {
            buffer.skipBytes(buffer.readableBytes()); // the connection closes once the 400 is written
            return;
        }
        if (readingHead && buffer.isReadable()) {
            if (headTimer == null) {
                headTimer = ctx.executor().schedule(() -> headTimedOut(ctx), headTimeoutNanos, TimeUnit.NANOSECONDS);
            }
            if (hasFoldedLine(buffer, headStarted)) {
                // The parser would join the line to the one before; a proxy in front may not have.
                refuse(buffer, out, new AmbiguousFraming("a header line is folded (obs-fold)"));
                return;
            }
        }
        int before = out.size();
        int readerIndex = buffer.readerIndex();
        super.decode(ctx, buffer, out);
        boolean boundary = false;
        for (int i = before; i < out.size(); i++) {
            Object message = out.get(i);
            if (message instanceof HttpRequest request) {
                readingHead = false;
                headStarted = false;
                boundary = true;
                cancelHeadTimer();
                refused |= request.decoderResult().isFailure();
            }
            if (message instanceof LastHttpContent) {
                readingHead = true;
                boundary = true;
            }
        }
        if (readingHead && !boundary && buffer.readerIndex() > readerIndex) {
            headStarted = true;
        }
    }

    /** Hands on a request the parser failed on, as the parser itself does, and reads nothing more. */
    private void refuse(ByteBuf buffer, List<Object> out, Exception cause) {
        HttpMessage invalid = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/bad-request");
        invalid.setDecoderResult(DecoderResult.failure(cause));
        buffer.skipBytes(buffer.readableBytes());
        refused = true;
        readingHead = false;
        cancelHeadTimer();
        out.add(invalid);
    }

    /**
     * Whether a line of the head in {@code buffer} starts with a space or tab. The parser only
     * consumes whole lines, so the buffer starts at a line start; a line start right at the
     * buffer's start counts only when part of the head was parsed before.
     */
    static boolean hasFoldedLine(ByteBuf buffer, boolean headStarted) {
        boolean lineStart = true;
        boolean lineEmpty = true;
        boolean anyLine = headStarted;
        for (int i = buffer.readerIndex(); i < buffer.writerIndex(); i++) {
            byte b = buffer.getByte(i);
            if (lineStart && anyLine && (b == ' ' || b == '\t')) {
                return true;
            }
            if (b == '\n') {
                if (lineEmpty && anyLine) {
                    return false; // the head ends here; what follows is a body
                }
                anyLine |= !lineEmpty;
                lineStart = true;
                lineEmpty = true;
            } else {
                lineStart = false;
                lineEmpty &= b == '\r';
            }
        }
        return false;
    }

    /**
     * Called for every request head the parser reads: a {@code Transfer-Encoding} it would not
     * take as chunked is read as "no body" by the parser but as a body by others, and with a
     * {@code Content-Length} beside it the two ends may split the bytes differently.
     */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        List<String> encodings = message.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!encodings.isEmpty()) {
            if (message.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
                throw new AmbiguousFraming("both Content-Length and Transfer-Encoding are set");
            }
            if (encodings.size() != 1 || !encodings.get(0).strip().equalsIgnoreCase("chunked")) {
                throw new AmbiguousFraming("the only Transfer-Encoding accepted is chunked");
            }
        }
        return super.isContentAlwaysEmpty(message);
    }

    private void cancelHeadTimer() {
        if (headTimer != null) {
            headTimer.cancel(false);
            headTimer = null;
        }
    }

    private void headTimedOut(ChannelHandlerContext ctx) {
        headTimer = null;
        if (!readingHead || !ctx.channel().isActive()) {
            return;
        }
        if (!ctx.channel().config().isAutoRead()) {
            // The server stopped reading (an earlier request on the connection is still being
            // answered): the head cannot be blamed for not arriving, and no answer may be cut into.
            headTimer = ctx.executor().schedule(() -> headTimedOut(ctx), headTimeoutNanos, TimeUnit.NANOSECONDS);
            return;
        }
        answerAndClose(ctx, HEAD_TIMEOUT_ANSWER);
    }

    /**
     * Writes a whole answer from below the response encoder (no request object exists to answer
     * on), then reads and drops whatever the client still sends until it closes, or for a few
     * seconds at most: closing on unread bytes would reset the connection and lose the answer.
     */
    void answerAndClose(ChannelHandlerContext ctx, byte[] answer) {
        refused = true;
        readingHead = false;
        cancelHeadTimer();
        ctx.channel().config().setAutoRead(true);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(written -> {
            if (ctx.channel() instanceof SocketChannel socket && written.isSuccess()) {
                socket.shutdownOutput();
                ctx.executor().schedule(() -> ctx.close(), LINGER_SECONDS, TimeUnit.SECONDS);
            } else {
                ctx.close();
            }
        });
    }

    @Override
    public void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        cancelHeadTimer();
        super.handlerRemoved0(ctx);
    }

    /** A whole HTTP/1.1 answer in OpenAI's error shape that closes the connection. */
    static byte[] answer(int status, String reason, String type, String message, String code, String extraHeaders) {
        String body = "{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type + "\",\"param\":null,\"code\":\"" + code
                + "\"}}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes.length + "\r\nConnection: close\r\n" + extraHeaders + "\r\n";
        return (head + body).getBytes(StandardCharsets.UTF_8);
    }
}
