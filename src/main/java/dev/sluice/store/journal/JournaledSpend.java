package dev.sluice.store.journal;

import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.time.Scheduler;
import dev.sluice.time.TimeSource;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a gateway's finished calls' spend rows go: appended to the {@link SpendJournal} before
 * the call's answer ends, and shipped to the store by a {@link JournalShipper} in batches.
 * A process crash loses no row the journal took; a power loss at most one commit interval of
 * them. While the store is away the journal grows, up to its bound.
 *
 * <p>A spend buffer an earlier version left beside it (rows that had not reached the store
 * when it stopped) is imported into the journal at open ({@link LegacySpendImport}).
 */
public final class JournaledSpend implements AutoCloseable {
    private final SpendJournal journal;
    private final Scheduler jobs;
    private JournalShipper shipper;
    private boolean closed;

    private JournaledSpend(SpendJournal journal, Scheduler jobs) {
        this.journal = journal;
        this.jobs = jobs;
    }

    /**
     * Opens the journal in {@code journalFolder}, and imports into it the rows of the spend
     * buffer an earlier version left in {@code legacyBufferFolder}, when there is one. Nothing is
     * shipped until {@link #start}. The journal's commits and its shipping are jobs of
     * {@code jobs}, on {@code time}.
     */
    public static JournaledSpend open(Path journalFolder, Path legacyBufferFolder, TimeSource time, Scheduler jobs) {
        return open(JournalOptions.in(journalFolder, time), legacyBufferFolder, jobs);
    }

    static JournaledSpend open(JournalOptions options, Path legacyBufferFolder, Scheduler jobs) {
        SpendJournal journal = SpendJournal.open(options, jobs);
        try {
            LegacySpendImport.run(legacyBufferFolder, journal);
        } catch (RuntimeException e) {
            journal.close();
            throw e;
        }
        return new JournaledSpend(journal, jobs);
    }

    /** Starts shipping the journal's rows to {@code sink}. */
    public synchronized void start(SpendSink sink) {
        start(sink, ShipperOptions.DEFAULTS);
    }

    synchronized void start(SpendSink sink, ShipperOptions options) {
        Objects.requireNonNull(sink, "sink");
        shipper = JournalShipper.start(journal, sink, options, jobs);
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
    public SpendShippingStatus status() {
        JournalStatus journaled = journal.status();
        ShipperStatus shipping = shipper == null ? null : shipper.status();
        return shipping == null
                ? new SpendShippingStatus(journaled.pendingRecords(), journaled.bytesOnDisk(), true, "", 0)
                : new SpendShippingStatus(journaled.pendingRecords(), journaled.bytesOnDisk(), shipping.sinkReachable(),
                        shipping.lastError(), shipping.deadLetters());
    }

    /** The journal's own state: its fill, what waits and for how long. */
    public JournalStatus journalStatus() {
        return journal.status();
    }

    /** Ships what it can within the shipper's close timeout, then closes the journal: the store closes after this. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (shipper != null) {
            shipper.close();
        }
        journal.close();
    }
}
