package dev.sluice.store.journal;

import dev.sluice.time.TimeSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a {@link SpendJournal} keeps its segments and how it bounds and commits them.
 *
 * @param folder         the journal's own folder; created when missing
 * @param segmentBytes   a segment is rolled once it holds this many bytes; a record is
 *                       never split, so a segment may pass it by one record
 * @param maxBytes       the bound on the segment files' total size: an append that would pass
 *                       it is refused. At least two segments, so that once everything is
 *                       shipped the journal is under half its bound whatever the active
 *                       segment holds
 * @param commitInterval how often the group commit forces what was written to the disk: the
 *                       most a power loss can take from a journal whose appends were accepted
 * @param time           the gateway's time: its clock stamps each record with when it was appended,
 *                       for the oldest pending age; its ticker measures the shipper's outages
 */
public record JournalOptions(Path folder, long segmentBytes, long maxBytes, Duration commitInterval, TimeSource time) {
    /** 8 MiB segments. */
    public static final long DEFAULT_SEGMENT_BYTES = 8L << 20;
    /** 1 GiB on disk: about four million rows. */
    public static final long DEFAULT_MAX_BYTES = 1L << 30;
    /**
     * 10 ms: a power loss takes at most the last 10 ms of accepted rows. Each commit is an
     * fsync; at 5 ms, keyed calls took about 6 % more CPU than with commits a second apart.
     */
    public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofMillis(10);
    /** The largest segment allowed: the shipper reads a sealed segment a window at a time, but a record whole. */
    static final long MAX_SEGMENT_BYTES = 1L << 30;

    public JournalOptions {
        Objects.requireNonNull(folder, "folder");
        if (segmentBytes < 1024 || segmentBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes: " + segmentBytes + " (expected: from 1024 to "
                    + MAX_SEGMENT_BYTES + ")");
        }
        if (maxBytes < 2 * segmentBytes) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 2 * segmentBytes, "
                    + 2 * segmentBytes + ")");
        }
        Objects.requireNonNull(commitInterval, "commitInterval");
        if (commitInterval.isNegative() || commitInterval.isZero() || commitInterval.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("commitInterval: " + commitInterval + " (expected: > 0 and <= 1 s)");
        }
        Objects.requireNonNull(time, "time");
    }

    /** The defaults, in {@code folder}, on {@code time}. */
    public static JournalOptions in(Path folder, TimeSource time) {
        return new JournalOptions(folder, DEFAULT_SEGMENT_BYTES, DEFAULT_MAX_BYTES, DEFAULT_COMMIT_INTERVAL, time);
    }

    public JournalOptions withSegmentBytes(long bytes) {
        return new JournalOptions(folder, bytes, maxBytes, commitInterval, time);
    }

    public JournalOptions withMaxBytes(long bytes) {
        return new JournalOptions(folder, segmentBytes, bytes, commitInterval, time);
    }

    public JournalOptions withCommitInterval(Duration interval) {
        return new JournalOptions(folder, segmentBytes, maxBytes, interval, time);
    }

    public JournalOptions withTime(TimeSource newTime) {
        return new JournalOptions(folder, segmentBytes, maxBytes, commitInterval, newTime);
    }
}
