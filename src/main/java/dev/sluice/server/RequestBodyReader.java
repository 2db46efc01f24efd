package dev.sluice.server;

import dev.sluice.api.ApiError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * Reads a request body up to a size limit. An oversized body is refused with a 413 the
 * client can read: when the client waits for {@code 100 Continue} it is answered at once
 * and never sends the body; otherwise the rest of the body is read and thrown away (up to
 * a hard cap) so the client is not reset while still writing.
 */
final class RequestBodyReader {
    /** Past this many discarded bytes the connection is closed instead. */
    private static final long DISCARD_CAP = 1L << 30;
    /** A buffer holds at most this much; larger configured limits are cut to it. */
    private static final long LARGEST_BODY = Integer.MAX_VALUE - 1024;
    /** Memory set aside before any byte arrives: a declared length alone reserves no more. */
    private static final int INITIAL_CAPACITY = 16 * 1024;
    /** How long a client may take to send its whole body. */
    static final long BODY_TIMEOUT_MS = 60_000;

    private final Vertx vertx;
    private final long limit;

    RequestBodyReader(Vertx vertx, long limit) {
        this.vertx = vertx;
        this.limit = Math.min(limit, LARGEST_BODY);
    }

    Future<Buffer> read(HttpServerRequest request) {
        String declared = request.getHeader("Content-Length");
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                return Future.failedFuture(ApiError.invalidRequest("Content-Length is not a number: " + declared, null, null));
            }
            if (length > limit) {
                return refuse(request);
            }
        }
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            request.response().writeContinue();
        }
        Promise<Buffer> body = Promise.promise();
        Buffer received = Buffer.buffer(INITIAL_CAPACITY);
        long[] discarded = {0};
        long timer = vertx.setTimer(BODY_TIMEOUT_MS, id -> {
            if (body.tryFail(new ApiError(408, "timeout_error",
                    "The request body did not arrive within " + BODY_TIMEOUT_MS / 1000 + " s.", null, "request_timeout"))) {
                request.response().putHeader("Connection", "close");
            }
        });
        body.future().onComplete(done -> vertx.cancelTimer(timer));
        request.handler(chunk -> {
            if (body.future().isComplete()) {
                discard(request, discarded, chunk.length());
            } else if ((long) received.length() + chunk.length() > limit) {
                body.tryFail(tooLarge());
            } else {
                received.appendBuffer(chunk);
            }
        });
        request.exceptionHandler(body::tryFail);
        request.endHandler(v -> body.tryComplete(received));
        return body.future();
    }

    private Future<Buffer> refuse(HttpServerRequest request) {
        if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
            // The client has not sent the body and will not: the connection can go.
            request.response().putHeader("Connection", "close");
        } else {
            long[] discarded = {0};
            request.handler(chunk -> discard(request, discarded, chunk.length()));
        }
        return Future.failedFuture(tooLarge());
    }

    private static void discard(HttpServerRequest request, long[] discarded, int bytes) {
        discarded[0] += bytes;
        if (discarded[0] > DISCARD_CAP) {
            request.connection().close();
        }
    }

    private ApiError tooLarge() {
        return new ApiError(413, "invalid_request_error",
                "Request body is larger than the limit of " + limit + " bytes (general_settings.max_request_size_mb).",
                null, "request_too_large");
    }
}
