package dev.sluice.store;

import java.util.List;

/**
 * Where finished calls' spend rows are posted: the {@link SpendLedger} in the gateway. A
 * {@link SpendWriter} feeds one from its own thread, in batches.
 *
 * <p>An implementation must be idempotent by {@link SpendRow#callId() call id}: the writer
 * posts a row again whenever it cannot tell whether an earlier post was committed (an
 * outage mid-post, a crash before the buffer on disk forgot the row), and the second post
 * must change nothing.
 */
@FunctionalInterface
public interface SpendSink {
    /**
     * Posts the rows in one go: all of them, or none.
     *
     * @return how many rows were new
     * @throws StoreException of reason {@link StoreException.Reason#UNAVAILABLE UNAVAILABLE}
     *                        when the database cannot be reached (the rows are worth
     *                        keeping and posting again), or another reason when the rows
     *                        themselves were refused
     */
    int post(List<SpendRow> rows);
}
