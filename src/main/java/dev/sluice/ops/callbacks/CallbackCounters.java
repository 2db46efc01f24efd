package dev.sluice.ops.callbacks;

import java.util.concurrent.atomic.LongAdder;

/**
 * What became of the records offered to one callback, for {@code /metrics}: sent (its
 * receiver took them), failed (refused, or still failing after the last attempt or at
 * shutdown), dropped (its queue was full when offered).
 */
final class CallbackCounters {
    private final LongAdder sent = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    void sent(int records) {
        sent.add(records);
    }

    void failed(int records) {
        failed.add(records);
    }

    void drop() {
        dropped.increment();
    }

    long sent() {
        return sent.sum();
    }

    long failed() {
        return failed.sum();
    }

    long dropped() {
        return dropped.sum();
    }
}
