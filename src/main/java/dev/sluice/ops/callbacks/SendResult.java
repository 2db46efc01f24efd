package dev.sluice.ops.callbacks;

import java.time.Duration;
import java.util.Optional;

/**
 * What one post of a batch to a callback's receiver came to, read once into what delivery
 * does next: nothing more, give up, or try again after a backoff.
 */
sealed interface SendResult {
    /** The receiver took the batch (any 2xx). */
    record Delivered() implements SendResult {}

    /** The receiver refused the batch for what it is (a 4xx other than 408 and 429): sending it again changes nothing. */
    record Refused(String reason) implements SendResult {}

    /**
     * The receiver could not take the batch now: refused connection, timeout, 408, 429 or 5xx.
     *
     * @param retryAfter what the receiver asked to wait, from its {@code Retry-After}
     */
    record Failed(String reason, Optional<Duration> retryAfter) implements SendResult {}

    SendResult DELIVERED = new Delivered();

    /** The result of an answer with {@code status}. */
    static SendResult ofStatus(int status, Optional<Duration> retryAfter) {
        if (status >= 200 && status < 300) {
            return DELIVERED;
        }
        if (status == 408 || status == 429 || status >= 500) {
            return new Failed("answered " + status, retryAfter);
        }
        return new Refused("answered " + status);
    }
}
