package dev.sluice.vendors.mock;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;

/** Puts the status and headers on the mock's answers: JSON, errors and event streams. */
public final class MockResponses {

    private static final CharSequence APPLICATION_JSON = HttpHeaders.createOptimized("application/json");
    private static final CharSequence EVENT_STREAM = HttpHeaders.createOptimized("text/event-stream");
    private static final CharSequence NO_CACHE = HttpHeaders.createOptimized("no-cache");
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");

    private MockResponses() {}

    public static void json(HttpServerResponse response, Buffer body) {
        response.putHeader(HttpHeaders.CONTENT_TYPE, APPLICATION_JSON).end(body);
    }

    public static void error(HttpServerResponse response, MockError error) {
        response.setStatusCode(error.status());
        error.retryAfterSeconds().ifPresent(seconds -> response.putHeader(RETRY_AFTER, Integer.toString(seconds)));
        json(response, error.body());
    }

    /** Answers with {@code error} when there is one; whether it did, so the caller stops there. */
    public static boolean errorIfAny(HttpServerResponse response, Optional<MockError> error) {
        error.ifPresent(e -> error(response, e));
        return error.isPresent();
    }

    /** Prepares a 200 event stream; the headers leave with the first event. */
    static void eventStream(HttpServerResponse response) {
        response.setChunked(true)
                .putHeader(HttpHeaders.CONTENT_TYPE, EVENT_STREAM)
                .putHeader(HttpHeaders.CACHE_CONTROL, NO_CACHE);
    }
}
