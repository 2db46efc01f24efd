package dev.sluice.failure;

import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.Optional;

/**
 * One failed attempt, classified once.
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
        if (body.length() > MAX_BODY_BYTES) {
            body = body.getBuffer(0, MAX_BODY_BYTES);
        }
    }

    public boolean answered() {
        return status != 0;
    }
}
