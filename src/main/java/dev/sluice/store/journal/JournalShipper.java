package dev.sluice.store.journal;

import dev.sluice.store.DeadLetters;
import dev.sluice.store.JournalMark;
import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendSink;
import dev.sluice.store.StoreException;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import dev.sluice.time.TimeSource;
import dev.sluice.time.Wakeup;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a {@link SpendJournal}'s pending records to a {@link SpendSink}, oldest first, in
 * large batches, from one thread of its own, and acknowledges each batch once the sink
 * committed it, which lets the journal delete the segments behind it.
 *
 * <h2>Design notes</h2>
 * <p><b>At least once, counted once.</b> A batch is acknowledged only after the sink returned. A
 * crash between the two, or before the acknowledgement's checkpoint reached the disk, makes
 * the next process ship those records again, and that changes nothing: a sink is idempotent
 * by call id, or keeps how far it logged the journal ({@link SpendSink#shippedThrough}), which
 * the shipper asks before it starts and never posts a record before. Each post carries the
 * {@link JournalMark} just past its last row; a batch posted again after part of it landed
 * (an outage midway through a split one) is posted from where the landed part ends.
 *
 * <p><b>Batches.</b> Each post takes up to {@link ShipperOptions#maxBatchRows} records, or
 * what is there. Having caught up, the shipper lets records gather for
 * {@link ShipperOptions#gatherWait} before it reads again; a {@link #flush} cuts that short.
 *
 * <p><b>Outages.</b> A post that fails {@link StoreException.Reason#UNAVAILABLE UNAVAILABLE}
 * is logged once at WARN and tried again, the same batch, {@link ShipperOptions#retryDelay} of
 * the failures so far after the failed post began ({@link ShipperOptions#retryPause}): the time
 * it spent waiting for a connection counts toward the wait, so a store that returns is posted
 * to within the longest back-off ({@link ShipperOptions#retryMax}), not that plus the store's
 * connection timeout. The journal grows meanwhile, up to its bound. The post that ends an outage is logged at INFO.
 *
 * <p><b>Refused rows.</b> Any other failure says something in the batch is bad, and posting
 * it again would fail forever. The batch is split in halves, each posted on its own, down to
 * single rows; a row refused alone goes to the {@link DeadLetters} file, logged at
 * ERROR, and the rest land. If the sink becomes unreachable midway, the whole batch is tried
 * again later: its halves already posted change nothing the second time.
 *
 * <p><b>Errors.</b> The thread is a job of the gateway's {@link Scheduler}: an
 * {@code OutOfMemoryError} or another {@code Error} is logged and shipping starts again after a
 * back-off, with the batch in hand, asking the sink again how far it has logged the journal.
 * Every wait, the shipper's and a flush's, is on the journal's time, through one {@link Wakeup}:
 * a flush or close ends the shipper's pause, an acknowledgement ends the flushes' waits.
 */
public final class JournalShipper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalShipper.class);

    private final SpendJournal journal;
    private final SpendSink sink;
    private final ShipperOptions options;
    private final DeadLetters deadLetters;
    private final TimeSource time;
    private volatile SupervisedLoop loop;
    /** Woken when there is something to do sooner: a flush, close; and after each acknowledgement. */
    private final Wakeup wakeup;

    /** Flushes waiting now. */
    private final AtomicInteger hurrying = new AtomicInteger();
    private volatile boolean stopping;
    private volatile boolean reachable = true;
    private volatile String lastError = "";
    private volatile long shippedRows;
    private volatile long posts;
    /**
     * How far the sink has logged the journal, by its own word at start and by this shipper's
     * posts since; null until the sink has said. The shipper's thread only.
     */
    private Optional<JournalMark> logged;
    /**
     * The mark of the last row this shipper put in the dead letters: the sink never logs it,
     * so its own mark stays behind it, but it is not to be posted again. The shipper's thread only.
     */
    private JournalMark setAsideThrough;
    /** The mark of the furthest post this shipper tried, landed or not; the shipper's thread only. */
    private JournalMark furthestPosted;
    /** Posts that failed UNAVAILABLE since the last that succeeded; the shipper's thread only. */
    private int failures;
    private long outageStarted;
    /** The batch read and not yet acknowledged; kept across a restart. The shipper's thread only. */
    private JournalBatch held;

    private JournalShipper(SpendJournal journal, SpendSink sink, ShipperOptions options, Wakeup wakeup) {
        this.journal = Objects.requireNonNull(journal, "journal");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.options = Objects.requireNonNull(options, "options");
        this.deadLetters = DeadLetters.in(journal.options().folder());
        this.time = journal.options().time();
        this.wakeup = wakeup;
    }

    /**
     * Starts shipping, beginning with the records an earlier process left in the journal, as a
     * job of {@code jobs}: restarted after an Error as it says, waiting on the journal's time.
     */
    public static JournalShipper start(SpendJournal journal, SpendSink sink, ShipperOptions options, Scheduler jobs) {
        JournalShipper shipper = new JournalShipper(journal, sink, options, Wakeup.on(journal.options().time()));
        shipper.loop = jobs.loop("spend-journal-shipper", () -> {
            shipper.logged = null; // where an Error left it is not known: the sink is asked again
            shipper.run();
        });
        return shipper;
    }

    /**
     * Waits until every record appended before this call has been shipped and acknowledged.
     *
     * @return false when {@code timeout} passed first: the sink is unreachable or slow
     */
    public boolean flush(Duration timeout) {
        long target = journal.written();
        hurrying.incrementAndGet();
        wakeup.wake();
        try {
            wakeup.await(() -> journal.acknowledged() >= target || !loop.thread().isAlive(), timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            hurrying.decrementAndGet();
        }
        return journal.acknowledged() >= target;
    }

    /** The shipper's thread: a close ends it. */
    Thread thread() {
        return loop.thread();
    }

    public ShipperStatus status() {
        return new ShipperStatus(reachable, lastError, shippedRows, posts, deadLetters.added());
    }

    /**
     * Ships what is left within {@link ShipperOptions#closeTimeout}, stops the thread and forces
     * the journal to the disk. Records not shipped stay in the journal for the next start.
     * The journal stays the caller's to close, after this. Idempotent.
     */
    @Override
    public void close() {
        if (!stopping && !flush(options.closeTimeout())) {
            LOG.warn("spend journal: closing with {} record(s) not shipped; the next start ships them",
                    journal.status().pendingRecords());
        }
        stopping = true;
        loop.stop();
        wakeup.wake();
        boolean interrupted = ThreadEnd.await(loop.thread());
        journal.sync();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() throws InterruptedException {
        while (!stopping) {
            try {
                if (held == null) {
                    held = journal.read(options.maxBatchRows());
                }
                if (held.isEmpty()) {
                    held = null;
                    pause(options.gatherWait());
                    continue;
                }
                long posted = time.nanos();
                if (!ship(held, 0, held.rows().size())) {
                    pause(options.retryPause(failures, Duration.ofNanos(time.nanos() - posted)));
                    continue;
                }
                boolean full = held.rows().size() >= options.maxBatchRows();
                acknowledge(held);
                held = null;
                if (!full) {
                    pause(options.gatherWait());
                }
            } catch (RuntimeException e) {
                // A fault of the disk or a bug, not of the sink: say so, keep the thread, and
                // pause so that a fault that repeats does not spin.
                lastError = e.toString();
                LOG.error("spend journal: shipping failed; trying again in {} ms", options.retryMax().toMillis(), e);
                pause(options.retryMax());
            }
        }
    }

    private void acknowledge(JournalBatch batch) {
        journal.acknowledge(batch);
        shippedRows += batch.rows().size();
        wakeup.wake();
    }

    /** Waits {@code wait}, or less when a flush or close asks for hurry; interrupted, the job is being stopped. */
    private void pause(Duration wait) throws InterruptedException {
        wakeup.await(() -> stopping || hurryFor(wait), wait);
    }

    /** A flush cuts short the wait for records to gather, never the backoff of an outage. */
    private boolean hurryFor(Duration wait) {
        return hurrying.get() > 0 && failures == 0 && wait.equals(options.gatherWait());
    }

    /**
     * Asks the sink how far it has logged the journal.
     *
     * @return false when the sink is unreachable: to be asked again
     * @throws IllegalStateException when the sink's mark cannot be this journal's (it lies in a
     *                               segment this process is the first to write, past what it
     *                               posted: the folder's id was copied from another journal's;
     *                               records are shipped only once forced, so no power loss does
     *                               it). Trusting it would skip rows never logged; the rows stay
     *                               in the journal instead, and the shipper says so at ERROR
     *                               until it is resolved
     */
    private boolean askWhereTheSinkIs() {
        try {
            Optional<JournalMark> said = sink.shippedThrough(journal.id());
            if (said.isPresent() && !journal.id.mayHaveShipped(said.get())
                    && (furthestPosted == null || !furthestPosted.covers(said.get()))) {
                throw new IllegalStateException("the store says it logged spend journal " + journal.id() + " up to "
                        + said.get() + ", past what the journal in " + journal.options().folder() + " holds: its "
                        + JournalId.FILE_NAME + " was copied from another journal's. Its rows stay in the journal, "
                        + "unshipped, rather than be skipped or counted twice; see docs/keys.md");
            }
            logged = said;
            return true;
        } catch (StoreException e) {
            lastError = String.valueOf(e.getMessage());
            if (e.reason() != StoreException.Reason.UNAVAILABLE) {
                throw e;
            }
            unreachable(e);
            return false;
        }
    }

    /** The index of the batch's first row the sink has not logged, nor this shipper set aside. */
    private int unlogged(JournalBatch batch) {
        int first = 0;
        while (first < batch.marks().size() && done(batch.marks().get(first))) {
            first++;
        }
        return first;
    }

    private boolean done(JournalMark row) {
        return logged.isPresent() && logged.get().covers(row) || setAsideThrough != null && setAsideThrough.covers(row);
    }

    /**
     * Posts rows {@code from} to {@code to} of the batch, less those the sink has logged,
     * bisecting around rows the sink refuses alone. After a post fails, what the sink has
     * logged is asked again before the next: a failure can come after the commit (the answer
     * lost, the file write after it failing), and a post that overlapped what is logged would
     * count the overlap twice.
     *
     * @return false when the sink is unreachable: the batch is to be posted again
     */
    private boolean ship(JournalBatch batch, int from, int to) {
        if (logged == null && !askWhereTheSinkIs()) {
            return false;
        }
        int first = Math.max(from, unlogged(batch));
        if (first >= to) {
            return true;
        }
        List<SpendRow> rows = batch.rows().subList(first, to);
        JournalMark through = batch.marks().get(to - 1);
        if (furthestPosted == null || !furthestPosted.covers(through)) {
            furthestPosted = through;
        }
        try {
            sink.post(rows, through);
            logged = Optional.of(through);
            posts++;
            answered();
            return true;
        } catch (RuntimeException e) {
            logged = null;
            lastError = String.valueOf(e.getMessage());
            if (e instanceof StoreException store && store.reason() == StoreException.Reason.UNAVAILABLE) {
                unreachable(e);
                return false;
            }
            answered();
            if (rows.size() == 1) {
                return setAside(rows.getFirst(), e, through);
            }
            int half = first + rows.size() / 2;
            return ship(batch, first, half) && ship(batch, half, to);
        }
    }

    /** Puts a row the sink refuses alone in the dead letters; the rows after it go on. */
    private boolean setAside(SpendRow row, RuntimeException e, JournalMark through) {
        if (!askWhereTheSinkIs()) {
            return false;
        }
        if (logged.isPresent() && logged.get().covers(through)) {
            return true;  // it was logged after all, before the failure
        }
        LOG.error("spend journal: the sink refused call {} ({}); its row is kept in {}", row.callId(),
                e.getMessage(), deadLetters.file());
        deadLetters.add(row, String.valueOf(e.getMessage()));
        setAsideThrough = through;
        return true;
    }

    private void answered() {
        failures = 0;
        if (!reachable) {
            reachable = true;
            LOG.info("spend journal: the sink answers again, after {} s; {} record(s) pending",
                    String.format("%.1f", (time.nanos() - outageStarted) / 1e9), journal.status().pendingRecords());
        }
    }

    private void unreachable(RuntimeException e) {
        failures++;
        if (reachable) {
            reachable = false;
            outageStarted = time.nanos();
            LOG.warn("spend journal: the sink is unreachable ({}); records wait in the journal until it answers",
                    e.getMessage());
        }
    }
}
