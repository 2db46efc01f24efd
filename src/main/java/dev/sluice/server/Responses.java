package dev.sluice.server;

import dev.sluice.api.ApiError;
import dev.sluice.api.ErrorBodies;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/** Writes whole JSON answers; every error a caller sees goes through {@link #error}. */
final class Responses {
    private Responses() {}

    static void json(HttpServerResponse response, int status, Buffer body) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body);
    }

    /** Writes a body as it came, with the headers already set on the response. */
    static void raw(HttpServerResponse response, int status, Buffer body) {
        if (response.ended() || response.closed()) {
            return;
        }
        response.setStatusCode(status).end(body);
    }

    static void error(HttpServerResponse response, ApiError error) {
        if (response.headWritten()) {
            // Too late for a status: the body has begun. Close so the caller sees it broke.
            if (!response.ended() && !response.closed()) {
                response.reset();
            }
            return;
        }
        json(response, error.status(), ErrorBodies.of(error));
    }
}
