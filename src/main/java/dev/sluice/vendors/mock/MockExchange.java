package dev.sluice.vendors.mock;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * One model call that the mock does not answer at once: a slow answer, a stream, a cut or
 * a hang. It is over when the mock has answered or cut it, or when the client went away
 * first; only the last case is reported to {@code onClientGone}, once, and it also cancels
 * whatever step was still waiting on a timer. Every method runs on the request's event loop.
 */
public final class MockExchange {

    private static final long NO_TIMER = -1;

    private final Vertx vertx;
    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final Runnable onClientGone;
    private long timer = NO_TIMER;
    private boolean over;

    public MockExchange(Vertx vertx, HttpServerRequest request, Runnable onClientGone) {
        this.vertx = vertx;
        this.request = request;
        this.response = request.response();
        this.onClientGone = onClientGone;
        response.closeHandler(closed -> clientGone());
    }

    public HttpServerResponse response() {
        return response;
    }

    /** Runs {@code step} after {@code delayMillis} (at once when zero), unless the exchange is over by then. */
    public void after(long delayMillis, Runnable step) {
        if (over) {
            return;
        }
        if (delayMillis <= 0) {
            step.run();
            return;
        }
        timer = vertx.setTimer(delayMillis, fired -> {
            timer = NO_TIMER;
            if (!over) {
                step.run();
            }
        });
    }

    /** Writes and flushes one piece of the answer; the future completes once it left. */
    public Future<Void> write(Buffer piece) {
        return over ? Future.succeededFuture() : response.write(piece);
    }

    public void endJson(Buffer body) {
        if (!over) {
            over = true;
            MockResponses.json(response, body);
        }
    }

    public void end() {
        if (!over) {
            over = true;
            response.end();
        }
    }

    /** Drops the connection: no more bytes, no terminating chunk, no status if none was sent. */
    public void cut() {
        if (!over) {
            over = true;
            request.connection().close();
        }
    }

    private void clientGone() {
        if (over) {
            return;
        }
        over = true;
        if (timer != NO_TIMER) {
            vertx.cancelTimer(timer);
        }
        onClientGone.run();
    }
}
