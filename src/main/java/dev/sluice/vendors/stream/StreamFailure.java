package dev.sluice.vendors.stream;

import dev.sluice.failure.Failure;

/**
 * A stream that the vendor ended with an error event, or that cannot be read: carries the
 * failure as the taxonomy classifies it, with the vendor's status and body where it gave
 * them, so a failure before the stream's first event is retried, failed over or fallen back
 * from like the same error given as an answer.
 */
public final class StreamFailure extends RuntimeException {
    private final transient Failure failure;

    public StreamFailure(Failure failure) {
        super(failure.cause().isEmpty() ? "the upstream ended the stream with an error" : failure.cause(), null, false, false);
        this.failure = failure;
    }

    public Failure failure() {
        return failure;
    }
}
