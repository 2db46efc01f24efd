package dev.sluice.store.journal;

import dev.sluice.store.SpendBuffer;
import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.store.SpendWriter;
import dev.sluice.store.SpendWriterOptions;
import dev.sluice.store.SpendWriterStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a gateway's finished calls' spend rows go: appended to the {@link SpendJournal} before
 * the call's answer ends, and shipped to the store by a {@link JournalShipper} in batches.
 * A process crash loses no row the journal took; a power loss at most one commit interval of
 * them. While the store is away the journal grows, up to its bound.
 *
 * <p>A spend buffer an earlier version left beside it (rows that had not reached the store
 * when it stopped) is drained to the store by that version's writer, once, beside the journal.
 */
public final class JournaledSpend implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournaledSpend.class);

    private final SpendJournal journal;
    private final SpendBuffer legacyBuffer;
    private JournalShipper shipper;
    private SpendWriter legacyWriter;

    private JournaledSpend(SpendJournal journal, SpendBuffer legacyBuffer) {
        this.journal = journal;
        this.legacyBuffer = legacyBuffer;
    }

    /**
     * Opens the journal in {@code journalFolder}, and the spend buffer an earlier version left in
     * {@code legacyBufferFolder} when it holds rows. Nothing is shipped until {@link #start}.
     */
    public static JournaledSpend open(Path journalFolder, Path legacyBufferFolder) {
        SpendJournal journal = SpendJournal.open(JournalOptions.in(journalFolder));
        SpendBuffer legacy = null;
        try {
            if (Files.isDirectory(legacyBufferFolder)) {
                legacy = SpendBuffer.open(legacyBufferFolder, SpendBuffer.DEFAULT_MAX_BYTES);
                if (legacy.isEmpty()) {
                    legacy.close();
                    legacy = null;
                }
            }
        } catch (RuntimeException e) {
            journal.close();
            throw e;
        }
        return new JournaledSpend(journal, legacy);
    }

    /** Starts shipping to {@code sink}, the journal's rows and any a spend buffer left. */
    public synchronized void start(SpendSink sink) {
        Objects.requireNonNull(sink, "sink");
        shipper = JournalShipper.start(journal, sink, ShipperOptions.DEFAULTS);
        if (legacyBuffer != null) {
            LOG.info("spend.legacy_buffer folder={} rows={}: posting them beside the journal", legacyBuffer.folder(),
                    legacyBuffer.rows());
            legacyWriter = SpendWriter.start(sink, legacyBuffer, SpendWriterOptions.DEFAULTS);
        }
    }

    /** Journals a finished call's row; false when the journal cannot take it (over its bound, closed, the disk failing). */
    public boolean record(SpendRow row) {
        return journal.append(row).accepted();
    }

    /** Whether a row recorded now would most likely be taken: billable calls are refused when not. */
    public boolean accepting() {
        return journal.accepting();
    }

    /** What waits to reach the store, and whether it answered the last post, for readiness and metrics. */
    public SpendWriterStatus status() {
        JournalStatus journaled = journal.status();
        ShipperStatus shipping = shipper == null ? null : shipper.status();
        SpendWriterStatus legacy = legacyWriter == null ? null : legacyWriter.status();
        long rows = journaled.pendingRecords() + (legacy == null ? 0 : legacy.rowsQueued() + legacy.rowsOnDisk());
        long bytes = journaled.bytesOnDisk() + (legacy == null ? 0 : legacy.bytesOnDisk());
        boolean reachable = shipping == null || shipping.sinkReachable();
        String error = shipping == null ? "" : shipping.lastError();
        long deadLetters = (shipping == null ? 0 : shipping.deadLetters()) + (legacy == null ? 0 : legacy.deadLetters());
        return new SpendWriterStatus(0, rows, bytes, reachable, error, deadLetters);
    }

    /** The journal's own state: its fill, what waits and for how long. */
    public JournalStatus journalStatus() {
        return journal.status();
    }

    /** Ships what it can within the shipper's close timeout, then closes the journal: the store closes after this. */
    @Override
    public synchronized void close() {
        if (shipper != null) {
            shipper.close();
        }
        journal.close();
        if (legacyWriter != null) {
            legacyWriter.close();
        }
        if (legacyBuffer != null) {
            legacyBuffer.close();
        }
    }
}
