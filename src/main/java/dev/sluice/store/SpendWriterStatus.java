package dev.sluice.store;

import java.util.Objects;

/**
 * What a {@link SpendWriter} holds and whether its database answers, for
 * {@code /health/readiness}.
 *
 * @param rowsQueued    rows in memory, not yet posted nor on disk
 * @param rowsOnDisk    rows in the buffer on disk, waiting for the database
 * @param bytesOnDisk   the buffer's size, against its bound
 * @param sinkReachable false from a post that found the database unreachable to the next
 *                      post that succeeds
 * @param lastError     the last failure's message, kept after the database returns; empty
 *                      when there was none
 * @param deadLetters   rows set aside in the dead-letter file since the writer started
 */
public record SpendWriterStatus(
        int rowsQueued, long rowsOnDisk, long bytesOnDisk, boolean sinkReachable, String lastError, long deadLetters) {
    public SpendWriterStatus {
        Objects.requireNonNull(lastError, "lastError");
    }
}
