package dev.sluice.store;

import java.util.List;

/**
 * Where finished calls' spend rows are posted: the {@link SpendLedger} in the gateway. The
 * spend journal's shipper ({@link dev.sluice.store.journal.JournalShipper}) feeds one from
 * its own thread, in batches.
 *
 * <p>An implementation must be idempotent by {@link SpendRow#callId() call id}: the shipper
 * posts a row again whenever it cannot tell whether an earlier post was committed (an
 * outage mid-post, a crash before the journal's acknowledgement reached the disk, a spend
 * buffer of an earlier version imported again), and the second post must change nothing.
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
