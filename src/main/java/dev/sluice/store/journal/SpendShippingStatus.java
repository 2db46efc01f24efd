package dev.sluice.store.journal;

import java.util.Objects;

/**
 * How finished calls' spend rows are getting to the database, for {@code /health/readiness}
 * and {@code /metrics}: what waits in the spend journal, and whether the database took the
 * shipper's last post.
 *
 * @param rowsPending   rows in the journal, not yet in the database
 * @param bytesOnDisk   the journal's size, against its bound
 * @param sinkReachable false from a post that found the database unreachable to the next
 *                      post that succeeds
 * @param lastError     the last failure's message, kept after the database returns; empty
 *                      when there was none
 * @param deadLetters   rows set aside in the dead-letter file since the shipper started
 */
public record SpendShippingStatus(
        long rowsPending, long bytesOnDisk, boolean sinkReachable, String lastError, long deadLetters) {
    public SpendShippingStatus {
        Objects.requireNonNull(lastError, "lastError");
    }
}
