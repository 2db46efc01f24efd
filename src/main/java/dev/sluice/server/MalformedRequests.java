package dev.sluice.server;

import dev.sluice.http.Responses;
import dev.sluice.api.ApiError;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.http.HttpServerRequest;

/**
 * Requests the HTTP parser could not read (a request line or headers too long, bytes that
 * are not HTTP): answered in OpenAI's error shape like every other error, then the
 * connection is closed, since the rest of what the client sent cannot be trusted.
 */
final class MalformedRequests {
    private MalformedRequests() {}

    static void answer(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        ApiError error;
        if (cause instanceof TooLongHttpLineException) {
            error = new ApiError(414, "invalid_request_error", "The request line is too long.", null, "uri_too_long");
        } else if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            error = new ApiError(431, "invalid_request_error", "The request headers are too large.", null, "headers_too_large");
        } else {
            error = new ApiError(400, "invalid_request_error",
                    "The request is not valid HTTP: " + (cause == null ? "unreadable" : cause.getMessage()), null, "malformed_http");
        }
        request.response().putHeader("Connection", "close");
        Responses.error(request.response(), error);
    }
}
