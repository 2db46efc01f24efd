package dev.sluice.failure;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One failed attempt, classified once. Immutable: router events hand the same failure to
 * every listener in turn (the log, the metrics, a test's recorder), so none of them may be
 * able to change what the next one reads. The body is copied in, and {@link #body()} hands
 * each reader a copy of its own.
 *
 * @param kind       its class
 * @param status     the upstream's HTTP status, or 0 when it gave no HTTP answer
 * @param body       a bounded copy of the upstream's error body (empty when there was none)
 * @param retryAfter what the upstream's {@code Retry-After} asked for, when it sent one
 * @param cause      a readable cause for a failure without an HTTP answer ("connection
 *                   refused"), or the guardrail's reason; empty otherwise
 * @param headers    the upstream's response headers, in order, when it gave an HTTP answer:
 *                   the caller's error passes {@code Retry-After} and the rest on
 */
public record Failure(FailureClass kind, int status, Buffer body, Optional<Duration> retryAfter, String cause,
        List<Map.Entry<String, String>> headers) {

    /** The most of an upstream error body that is kept. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    public Failure {
        body = body.length() > MAX_BODY_BYTES ? body.getBuffer(0, MAX_BODY_BYTES) : body.copy();
        headers = List.copyOf(headers);
    }

    /** A failure without an HTTP answer, or one whose headers say nothing to the caller. */
    public Failure(FailureClass kind, int status, Buffer body, Optional<Duration> retryAfter, String cause) {
        this(kind, status, body, retryAfter, cause, List.of());
    }

    /** A failure Sluice itself decided (a guardrail, a deadline, no room): no upstream said anything. */
    public static Failure of(FailureClass kind, String cause) {
        return new Failure(kind, 0, Buffer.buffer(), Optional.empty(), cause);
    }

    /** The bounded error body, as a copy: writing to it changes nothing here. */
    @Override
    public Buffer body() {
        return body.copy();
    }

    public boolean answered() {
        return status != 0;
    }

    /** The first value of an upstream header, by name in any case. */
    public Optional<String> header(String name) {
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return Optional.of(header.getValue());
            }
        }
        return Optional.empty();
    }

    /** An immutable copy of a response's headers, to keep in a failure. */
    public static List<Map.Entry<String, String>> copyOf(MultiMap headers) {
        return headers.entries().stream().map(e -> Map.entry(e.getKey(), e.getValue())).toList();
    }
}
