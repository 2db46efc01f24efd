package dev.sluice.failure;

import io.vertx.core.buffer.Buffer;
import java.time.Duration;
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
 */
public record Failure(FailureClass kind, int status, Buffer body, Optional<Duration> retryAfter, String cause) {

    /** The most of an upstream error body that is kept. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    public Failure {
        body = body.length() > MAX_BODY_BYTES ? body.getBuffer(0, MAX_BODY_BYTES) : body.copy();
    }

    /** The bounded error body, as a copy: writing to it changes nothing here. */
    @Override
    public Buffer body() {
        return body.copy();
    }

    public boolean answered() {
        return status != 0;
    }
}
