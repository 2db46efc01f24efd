package dev.sluice.upstream;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;

/**
 * One call to a deployment whose answer has started to arrive: its status and headers,
 * the body still to read or stream, and a deadline that can be re-armed as chunks arrive.
 * Cancelling it closes the connection rather than draining it, so an abandoned upstream
 * call stops at once.
 */
public final class UpstreamExchange {
    private final Vertx vertx;
    private final HttpClientRequest request;
    private HttpClientResponse response;
    private long timerId = -1;
    private UpstreamFailure deadlineFailure;
    private boolean finished;

    UpstreamExchange(Vertx vertx, HttpClientRequest request) {
        this.vertx = vertx;
        this.request = request;
    }

    UpstreamExchange answered(HttpClientResponse response) {
        this.response = response;
        return this;
    }

    public int status() {
        return response.statusCode();
    }

    public MultiMap headers() {
        return response.headers();
    }

    /** The whole body; fails with an {@link UpstreamFailure} if it breaks off or times out. */
    public Future<Buffer> body() {
        return response.body()
                .recover(t -> Future.failedFuture(failure(t)))
                .andThen(ar -> finish());
    }

    /** The answer as a stream of buffers, for relaying chunk by chunk. */
    public HttpClientResponse stream() {
        return response;
    }

    /**
     * Starts (or restarts) the deadline: when it runs out the call is cancelled and fails
     * as a {@link UpstreamFailure.Kind#TIMEOUT} with {@code reason}.
     */
    public void armDeadline(long millis, String reason) {
        clearDeadline();
        if (finished) {
            return;
        }
        timerId = vertx.setTimer(millis, id -> {
            timerId = -1;
            deadlineFailure = new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, reason);
            request.reset(0, deadlineFailure);
        });
    }

    public void clearDeadline() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** Abandons the call: the connection is closed, not drained. */
    public void cancel() {
        finish();
        request.reset();
    }

    /** The call ended normally or was given up; stop timing it. */
    public void finish() {
        finished = true;
        clearDeadline();
    }

    /** The failure to report for {@code t}, preferring the deadline when it is what fired. */
    public UpstreamFailure failure(Throwable t) {
        clearDeadline();
        if (deadlineFailure != null) {
            return deadlineFailure;
        }
        if (t instanceof UpstreamFailure f) {
            return f;
        }
        if (t.getCause() instanceof UpstreamFailure f) {
            return f;
        }
        return UpstreamFailure.from(t);
    }
}
