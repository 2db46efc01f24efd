package dev.sluice.edge;

/** A request head that did not arrive whole within {@code request_head_timeout_seconds}. */
final class RequestHeadTimeoutException extends RuntimeException {
    final long seconds;

    RequestHeadTimeoutException(long seconds) {
        super("request head timed out", null, false, false);
        this.seconds = seconds;
    }
}
