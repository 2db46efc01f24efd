package dev.sluice.http;

import dev.sluice.wire.ApiError;
import dev.sluice.wire.ErrorBodies;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.slf4j.LoggerFactory;

/** Writes whole JSON answers; every error a caller sees goes through {@link #error}. */
public final class Replies {
    private Replies() {}

    public static void json(HttpServerResponse response, int status, Buffer body) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body);
    }

    /** Writes a body as it came, with the headers already set on the response. */
    public static void raw(HttpServerResponse response, int status, Buffer body) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).end(body);
    }

    /**
     * A failure Sluice did not foresee: logged with the call id and answered 500, the one
     * answer that means a bug in Sluice rather than in the request or the upstream.
     */
    public static void internalError(HttpServerResponse response, String where, Throwable t) {
        String callId = response.headers().get(CallIds.HEADER);
        LoggerFactory.getLogger(Replies.class).error("request.internal_error where={} call_id={}", where, callId, t);
        error(response, internal());
    }

    /** The 500 that means a bug in Sluice: the caller is pointed at the log by its call id. */
    public static ApiError internal() {
        return new ApiError(500, "server_error",
                "Sluice hit an internal error; the call id in x-litellm-call-id finds it in the log.", null, "internal_error");
    }

    public static void error(HttpServerResponse response, ApiError error) {
        if (response.headWritten()) {
            // Too late for a status: the body has begun. Close so the caller sees it broke.
            if (!response.ended() && !response.closed()) {
                response.reset();
            }
            return;
        }
        error.headers().forEach(response::putHeader);
        json(response, error.status(), ErrorBodies.of(error));
    }
}
