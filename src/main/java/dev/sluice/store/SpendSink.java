package dev.sluice.store;

import java.util.List;
import java.util.Optional;

/**
 * Where finished calls' spend rows are posted: the {@link SpendLedger} in the gateway. The
 * spend journal's shipper ({@link dev.sluice.store.journal.JournalShipper}) feeds one from
 * its own thread, in batches, each with the {@link JournalMark} just past its last row.
 *
 * <p>A post must change nothing when it comes again: the shipper posts rows again whenever
 * it cannot tell whether an earlier post was committed (an outage mid-post, a crash before
 * the journal's acknowledgement reached the disk). A sink is idempotent one of two ways:
 * <ul>
 *   <li>by {@link SpendRow#callId() call id}: a row whose call is logged is skipped; or
 *   <li>by mark: it keeps, in the transaction that logs a batch, the batch's mark, and
 *       {@link #shippedThrough reports} it; the shipper then never posts a row before it again,
 *       and a post whose mark the kept one {@link JournalMark#covers covers} changes nothing.
 * </ul>
 */
@FunctionalInterface
public interface SpendSink {
    /**
     * Posts the rows in one go: all of them, or none.
     *
     * @param through the journal's place just past the last of {@code rows}
     * @return how many rows were new
     * @throws StoreException of reason {@link StoreException.Reason#UNAVAILABLE UNAVAILABLE}
     *                        when the database cannot be reached (the rows are worth
     *                        keeping and posting again), or another reason when the rows
     *                        themselves were refused
     */
    int post(List<SpendRow> rows, JournalMark through);

    /**
     * How far the rows of the journal with id {@code journal} are logged, for a sink
     * idempotent by mark; empty for one idempotent by call id, or before its first post.
     *
     * @throws StoreException as {@link #post} does
     */
    default Optional<JournalMark> shippedThrough(String journal) {
        return Optional.empty();
    }
}
