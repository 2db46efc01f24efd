package dev.sluice.edge;

import dev.sluice.http.Replies;
import dev.sluice.wire.ApiError;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.http.HttpServerRequest;

/**
 * Requests the HTTP parser could not read (a request line or headers too long, bytes that
 * are not HTTP): answered in OpenAI's error shape like every other error, saying what is
 * wrong but never quoting what was sent, then the connection is closed, since the rest of
 * what the client sent cannot be trusted.
 */
public final class MalformedRequests {
    private MalformedRequests() {}

    /**
     * What the parser found wrong, without the bytes it found it in: the parser quotes the
     * offending header value or request line after a colon, and a header value is often a key
     * ({@code Authorization: Bearer sk-...}), which must never be echoed back.
     */
    static String describe(Throwable cause) {
        String message = cause == null ? null : cause.getMessage();
        int quoted = message == null ? -1 : message.indexOf(": ");
        if (quoted <= 0) {
            return "it could not be parsed";
        }
        return message.substring(0, quoted).replaceFirst(",?\\s*such as\\s*$", "").strip();
    }

    public static void answer(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        ApiError error;
        if (cause instanceof RequestFramingException) {
            error = new ApiError(400, "invalid_request_error", "The request's framing is ambiguous: " + cause.getMessage() + ".",
                    null, "ambiguous_framing");
        } else if (cause instanceof RequestHeadTimeoutException late) {
            error = new ApiError(408, "timeout_error", "The request head did not arrive within " + late.seconds
                    + " s (general_settings.request_head_timeout_seconds).", null, "request_timeout");
        } else if (cause instanceof TooLongHttpLineException) {
            error = new ApiError(414, "invalid_request_error", "The request line is too long.", null, "uri_too_long");
        } else if (cause instanceof TooLongHttpHeaderException || cause instanceof TooLongFrameException) {
            error = new ApiError(431, "invalid_request_error", "The request headers are too large.", null, "headers_too_large");
        } else {
            error = new ApiError(400, "invalid_request_error", "The request is not valid HTTP: " + describe(cause) + ".", null,
                    "malformed_http");
        }
        request.response().putHeader("Connection", "close");
        Replies.error(request.response(), error);
    }
}
