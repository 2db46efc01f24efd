package dev.sluice.failure;

import io.netty.channel.ConnectTimeoutException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.StreamResetException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * A call to a deployment that produced no HTTP answer: the connection could not be made,
 * broke, or the deadline ran out. An upstream that answered with an error status is not a
 * failure of this kind; it is an answer.
 */
public final class UpstreamFailure extends Exception {

    /** What went wrong at the transport level. */
    public enum Kind {
        /** Refused, unresolvable, unroutable, TLS handshake failed, or connect timed out. */
        CONNECT,
        /** The connection closed or was reset before the answer was complete. */
        BROKEN,
        /** The deadline for the answer (or the next stream chunk) ran out. */
        TIMEOUT
    }

    private final Kind kind;

    public UpstreamFailure(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** Maps whatever the HTTP client threw to one of the three kinds, with a readable cause. */
    public static UpstreamFailure from(Throwable t) {
        if (t instanceof UpstreamFailure f) {
            return f;
        }
        if (t instanceof ConnectTimeoutException) {
            return new UpstreamFailure(Kind.CONNECT, "connect timed out");
        }
        if (t instanceof ConnectException) {
            return new UpstreamFailure(Kind.CONNECT, "connection refused");
        }
        if (t instanceof UnknownHostException) {
            return new UpstreamFailure(Kind.CONNECT, "unknown host " + t.getMessage());
        }
        if (t instanceof NoRouteToHostException) {
            return new UpstreamFailure(Kind.CONNECT, "no route to host");
        }
        if (t instanceof SSLException) {
            return new UpstreamFailure(Kind.CONNECT, "TLS failed: " + t.getMessage());
        }
        if (t instanceof TimeoutException) {
            return new UpstreamFailure(Kind.TIMEOUT, "timed out");
        }
        if (t instanceof HttpClosedException || t instanceof StreamResetException) {
            return new UpstreamFailure(Kind.BROKEN, "connection closed before the answer was complete");
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return new UpstreamFailure(Kind.BROKEN, message);
    }
}
