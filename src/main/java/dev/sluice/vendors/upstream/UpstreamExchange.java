package dev.sluice.vendors.upstream;

import dev.sluice.failure.UpstreamFailure;
import io.netty.buffer.Unpooled;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One call to a deployment, from the moment it is started: the answer's status and headers
 * once they arrive, the body to read or stream, and a deadline that can be re-armed as
 * chunks arrive. Cancelling it closes the connection rather than draining it, so an
 * abandoned call stops at once, whether it is still connecting, waiting or streaming.
 * Used only from the event loop that started it.
 *
 * <p>Design note: a stream re-arms its deadline on every chunk. Creating and cancelling a
 * timer per chunk is measurable on the hot path, so the deadline is a time stamp and at most
 * one timer runs: when it fires early (the deadline moved on), it re-schedules itself for the
 * rest; only a deadline moved earlier than the running timer replaces it.
 */
public final class UpstreamExchange {
    private final Vertx vertx;
    private final LongSupplier nanoTime;
    private final Promise<UpstreamExchange> answered = Promise.promise();
    private HttpClientRequest request;
    private HttpClientResponse response;
    private long timerId = -1;
    private long timerFiresAt;
    private long deadlineAt;
    private String deadlineReason;
    private UpstreamFailure deadlineFailure;
    private boolean cancelled;
    private boolean finished;

    UpstreamExchange(Vertx vertx, LongSupplier nanoTime) {
        this.vertx = vertx;
        this.nanoTime = nanoTime;
    }

    void send(Future<HttpClientRequest> requestReady, byte[] body) {
        requestReady.onComplete(ready -> {
            if (ready.failed()) {
                answered.tryFail(failure(ready.cause()));
                return;
            }
            request = ready.result();
            if (deadlineFailure != null) {
                request.reset(0, deadlineFailure);
                return;
            }
            if (cancelled) {
                request.reset();
                return;
            }
            // The body's bytes as they are: a large body is not copied again for each attempt.
            request.send(BufferInternal.buffer(Unpooled.wrappedBuffer(body))).onComplete(sent -> {
                if (sent.succeeded()) {
                    response = sent.result();
                    answered.tryComplete(this);
                } else {
                    answered.tryFail(failure(sent.cause()));
                }
            });
        });
    }

    /** Completes when the status and headers arrive; fails with an {@link UpstreamFailure}. */
    public Future<UpstreamExchange> answered() {
        return answered.future();
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

    /**
     * At most the first {@code maxBytes} of the body, for an answer only a part of which is of
     * use (an error's message and code): once that much has come, the connection is closed
     * rather than read to its end, so an upstream sending an endless or enormous error body
     * costs {@code maxBytes} and no more. Fails with an {@link UpstreamFailure} if the body
     * breaks off or times out before its end or the bound.
     */
    public Future<Buffer> bodyUpTo(int maxBytes) {
        Promise<Buffer> read = Promise.promise();
        Buffer kept = Buffer.buffer(Math.min(maxBytes, 4096));
        response.exceptionHandler(t -> read.tryFail(failure(t)));
        response.endHandler(end -> read.tryComplete(kept));
        response.handler(chunk -> {
            if (read.future().isComplete()) {
                return;
            }
            int room = maxBytes - kept.length();
            if (chunk.length() < room) {
                kept.appendBuffer(chunk);
                return;
            }
            kept.appendBuffer(chunk, 0, room);
            read.tryComplete(kept);
            response.handler(null);
            request.reset(); // the rest is not wanted: close the connection instead of draining it
        });
        return read.future().andThen(ar -> finish());
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
        if (finished) {
            return;
        }
        long now = nanoTime.getAsLong();
        deadlineAt = now + TimeUnit.MILLISECONDS.toNanos(millis);
        deadlineReason = reason;
        if (timerId >= 0 && timerFiresAt <= deadlineAt) {
            return; // the running timer fires first and will re-schedule for the rest
        }
        clearDeadline();
        schedule(now, millis);
    }

    private void schedule(long now, long millis) {
        timerFiresAt = now + TimeUnit.MILLISECONDS.toNanos(millis);
        timerId = vertx.setTimer(Math.max(1, millis), id -> onTimer());
    }

    private void onTimer() {
        timerId = -1;
        if (finished) {
            return;
        }
        long now = nanoTime.getAsLong();
        long remaining = deadlineAt - now;
        if (remaining > 0) {
            schedule(now, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999));
            return;
        }
        deadlineFailure = new UpstreamFailure(UpstreamFailure.Kind.TIMEOUT, deadlineReason);
        if (request != null) {
            request.reset(0, deadlineFailure);
        }
        answered.tryFail(deadlineFailure);
    }

    public void clearDeadline() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
            timerId = -1;
        }
    }

    /** Abandons the call: the connection is closed, not drained. */
    public void cancel() {
        if (cancelled) {
            return;
        }
        cancelled = true;
        finish();
        if (request != null) {
            request.reset();
        }
        answered.tryFail(cancelledFailure());
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

    private static UpstreamFailure cancelledFailure() {
        return new UpstreamFailure(UpstreamFailure.Kind.BROKEN, "cancelled: the caller went away");
    }
}
