package dev.sluice.ops.callbacks;

import java.util.List;

/**
 * The logging callbacks of one gateway, as the call path sees them: a finished call's
 * {@link CallRecord} is offered to every callback that is told of calls that ended that way
 * ({@code success_callback}, {@code failure_callback}, or {@code callbacks} for both). Offering
 * never waits; delivery happens on each callback's own sender ({@link CallbackQueue}).
 *
 * <p>With no callback configured this is {@link #none()}, which the call path asks only
 * {@link #enabled()} of: it builds no record, copies no body and allocates nothing for it.
 */
public final class Callbacks implements AutoCloseable {
    private static final Callbacks NONE = new Callbacks(List.of(), null, true);

    /** One queued callback and the calls it is told of. */
    record Subscriber(CallbackQueue queue, boolean onSuccess, boolean onFailure) {
        boolean wants(CallRecord record) {
            return record.success() ? onSuccess : onFailure;
        }
    }

    private final List<Subscriber> queued;
    private final OtelCallback spans;
    private final boolean messageLogging;

    /** @param spans the {@code otel} callback; null when it is not configured */
    Callbacks(List<Subscriber> queued, OtelCallback spans, boolean messageLogging) {
        this.queued = List.copyOf(queued);
        this.spans = spans;
        this.messageLogging = messageLogging;
    }

    /** No callback at all. */
    public static Callbacks none() {
        return NONE;
    }

    /** Whether any callback is configured: only then does the call path record its calls. */
    public boolean enabled() {
        return spans != null || !queued.isEmpty();
    }

    /** Whether prompts and answers may reach the callbacks ({@code turn_off_message_logging} unset or false). */
    public boolean logsMessages() {
        return messageLogging;
    }

    /** Whether the {@code otel} callback describes calls' spans: only then is {@link #routed} worth a record. */
    public boolean describesSpans() {
        return spans != null;
    }

    /**
     * Routing has ended and the answer is about to be written: what is known of the call so
     * far goes on its span, which may end as the answer is written, before the call is settled.
     */
    public void routed(CallRecord sofar) {
        if (spans != null) {
            spans.describe(sofar, false);
        }
    }

    /** A call was settled: its record goes to every callback told of calls that ended as it did. */
    public void offer(CallRecord record) {
        if (spans != null) {
            spans.describe(record, true);
        }
        for (Subscriber subscriber : queued) {
            if (subscriber.wants(record)) {
                subscriber.queue().offer(record);
            }
        }
    }

    /** Flushes every callback's queue, all at once, each within its short deadline. */
    @Override
    public void close() {
        List<Thread> closing = queued.stream()
                .map(subscriber -> Thread.ofVirtual().start(subscriber.queue()::close))
                .toList();
        for (Thread thread : closing) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
