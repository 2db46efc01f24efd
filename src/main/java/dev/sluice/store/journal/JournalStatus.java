package dev.sluice.store.journal;

import java.time.Duration;

/**
 * What a {@link SpendJournal} holds, for metrics and the health page.
 *
 * @param bytesOnDisk      the segment files' total size, acknowledged records included until
 *                         their segment goes
 * @param maxBytes         the bound appends are refused past
 * @param pendingRecords   records appended (or found at open) and not yet acknowledged
 * @param oldestPendingAge how long the oldest pending record has waited since it was
 *                         appended; zero when none waits
 * @param segments         segment files on disk
 * @param skippedRecords   damaged records skipped since open (torn or failing their checksum)
 * @param refusedAppends   appends refused since open because the journal was full
 * @param durablePosition  the journal position the group commit has forced to the disk
 */
public record JournalStatus(long bytesOnDisk, long maxBytes, long pendingRecords, Duration oldestPendingAge,
        int segments, long skippedRecords, long refusedAppends, long durablePosition) {

    /** The share of the bound in use, from 0 to 1 (a little more at close, never less than 0). */
    public double fill() {
        return (double) bytesOnDisk / maxBytes;
    }
}
