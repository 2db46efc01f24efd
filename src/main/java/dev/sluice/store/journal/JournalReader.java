package dev.sluice.store.journal;

import dev.sluice.store.JournalMark;
import dev.sluice.store.SpendRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The shipper's place in a {@link SpendJournal}: how far it has read and how far it has
 * acknowledged. Pending records are read from the segment files, not kept in memory, so a
 * long outage costs disk, not heap. {@link #read} and {@link #acknowledged} are called by
 * the shipper's thread only; {@link #oldestPendingAge} by anyone.
 */
final class JournalReader implements AutoCloseable {
    private final SpendJournal journal;
    private final SegmentReader segments = new SegmentReader(true);
    private final SegmentReader peeker = new SegmentReader(false);
    private long readPosition;
    private volatile long acknowledged;
    private long peekedPosition = -1;
    private long peekedMillis;

    JournalReader(SpendJournal journal, long start) {
        this.journal = journal;
        this.readPosition = start;
        this.acknowledged = start;
    }

    long acknowledged() {
        return acknowledged;
    }

    /**
     * Reads up to {@code maxRows} records after the last read, across segments, up to the last
     * whole record written.
     *
     * @throws UncheckedIOException when a segment cannot be read; nothing is read then, and
     *                              reading again starts from the same place
     */
    JournalBatch read(int maxRows) {
        List<SpendRow> rows = new ArrayList<>();
        List<JournalMark> marks = new ArrayList<>();
        long start = readPosition;
        // Only what the group commit forced: a row shipped before it is on the disk could be
        // logged by the store and then lost with its segment to a power loss, and a segment
        // numbered anew after it would pass its own rows for logged.
        long durable = journal.commit.durable();
        while (rows.size() < maxRows && readPosition < durable) {
            Segment segment = journal.segmentAt(readPosition);
            if (segment == null) {
                break;
            }
            // Asked before the size is read: a segment no longer active has its final size.
            boolean growing = journal.isActive(segment);
            long limit = Math.min(segment.size, durable - segment.base);
            List<SpendRow> chunkRows = new ArrayList<>();
            List<JournalMark> chunkMarks = new ArrayList<>();
            SegmentReader.Chunk chunk;
            try {
                chunk = segments.read(segment, readPosition - segment.base, limit, maxRows - rows.size(),
                        (entry, end) -> {
                            chunkRows.add(entry.row());
                            chunkMarks.add(new JournalMark(journal.id(), segment.sequence, end));
                        });
            } catch (IOException e) {
                segments.close();
                throw new UncheckedIOException("read spend journal segment " + segment + ": " + e.getMessage(), e);
            }
            rows.addAll(chunkRows);
            marks.addAll(chunkMarks);
            if (!segment.recovered) {
                journal.skippedLive(chunk.skipped());
            }
            readPosition = segment.base + chunk.end();
            if (chunk.end() < segment.size || growing) {
                break;
            }
        }
        return new JournalBatch(List.copyOf(rows), List.copyOf(marks), start, readPosition);
    }

    /** Moves the acknowledged position past {@code batch}, which must be the oldest not yet acknowledged. */
    void acknowledged(JournalBatch batch) {
        if (batch.start() != acknowledged || batch.end() > readPosition) {
            throw new IllegalStateException("spend journal: the batch from position " + batch.start() + " to "
                    + batch.end() + " is not the next to acknowledge (acknowledged up to " + acknowledged + ")");
        }
        acknowledged = batch.end();
    }

    /**
     * The call ids of every pending record, read from the disk with a reader of their own;
     * before the shipper starts, as it reads nothing meanwhile.
     *
     * @throws UncheckedIOException when a segment cannot be read
     */
    Set<String> pendingCallIds() {
        Set<String> ids = new HashSet<>();
        try (SegmentReader reader = new SegmentReader(false)) {
            long at = acknowledged;
            Segment segment;
            while ((segment = journal.segmentAt(at)) != null && at < segment.end()) {
                SegmentReader.Chunk chunk = reader.read(segment, at - segment.base, segment.size, Integer.MAX_VALUE,
                        (entry, end) -> ids.add(entry.row().callId()));
                at = segment.base + chunk.end();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("read spend journal: " + e.getMessage(), e);
        }
        return ids;
    }

    /** Closes the files of a segment about to be deleted. */
    synchronized void forget(Segment segment) {
        segments.close();
        peeker.close();
    }

    /**
     * How long ago the oldest pending record was appended, read from its header on disk when
     * the acknowledged position moved since the last look; zero when it cannot be found.
     */
    synchronized Duration oldestPendingAge(long nowMillis) {
        long position = acknowledged;
        if (position != peekedPosition) {
            try {
                peekedMillis = peek(position);
                // Remembered only once found: a record not yet readable is looked for again.
                peekedPosition = peekedMillis < 0 ? -1 : position;
            } catch (IOException | RuntimeException e) {
                // Its segment went while it was looked at: the record was shipped meanwhile.
                peeker.close();
                return Duration.ZERO;
            }
        }
        return peekedMillis < 0 ? Duration.ZERO : Duration.ofMillis(Math.max(0, nowMillis - peekedMillis));
    }

    private long peek(long position) throws IOException {
        long[] found = {-1};
        long at = position;
        while (found[0] < 0) {
            Segment segment = journal.segmentAt(at);
            if (segment == null) {
                break;
            }
            boolean growing = journal.isActive(segment);
            long limit = segment.size;
            SegmentReader.Chunk chunk = peeker.read(segment, at - segment.base, limit, 1,
                    (entry, end) -> found[0] = entry.appendedAtMillis());
            at = segment.base + chunk.end();
            if (growing && chunk.records() == 0) {
                break;
            }
        }
        return found[0];
    }

    @Override
    public synchronized void close() {
        segments.close();
        peeker.close();
    }
}
