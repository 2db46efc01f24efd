package dev.sluice.store;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes every finished call's {@link SpendRow} and sees it into the {@link SpendSink}: in
 * batches, from one thread of its own, and through the {@link SpendBuffer} on disk whenever
 * the database cannot be reached, so that spend is never lost.
 *
 * <pre>{@code
 * SpendBuffer buffer = SpendBuffer.open(SpendBuffer.DEFAULT_FOLDER, SpendBuffer.DEFAULT_MAX_BYTES);
 * SpendWriter writer = SpendWriter.start(new SpendLedger(database), buffer, SpendWriterOptions.DEFAULTS);
 * ...
 * if (!writer.record(row)) { ... refuse billable calls: spend could not be kept ... }
 * ...
 * writer.close();   // then buffer.close(), then database.close()
 * }</pre>
 *
 * <h2>Design notes</h2>
 * <p><b>Where a row is.</b> A row {@link #record} accepted is in one of: the queue in memory;
 * the batch the writer's thread holds; the buffer on disk; the database; the dead-letter
 * file. It leaves one place only after the next has it: an append to the buffer is forced to
 * the disk before the batch is let go, and a chunk of the buffer is removed only after the
 * sink committed it. So a crash can make the writer post a row twice, never skip one, and the
 * sink is idempotent by call id, so the second post changes nothing. Only rows in memory are
 * lost if the process dies without {@link #close()}: at most a {@code flushInterval} of them
 * while the database answers.
 *
 * <p><b>Order.</b> Rows reach the sink oldest first. While the buffer holds rows, new batches
 * are appended behind them rather than posted past them, and the buffer is replayed one
 * chunk per turn of the loop, so the queue keeps moving during a long replay. The one
 * exception: a batch the full buffer cannot take is posted ahead when the sink answers.
 *
 * <p><b>Outages.</b> A post that fails {@link StoreException.Reason#UNAVAILABLE UNAVAILABLE}
 * starts an outage, logged once at WARN; the post that ends it is logged once at INFO. During
 * one, batches go to the buffer within a {@code flushInterval}, and the sink is tried again,
 * with the oldest rows, after {@link SpendWriterOptions#retryDelay} of the failures so far.
 *
 * <p><b>Refused rows.</b> Any other failure says the batch itself is bad, and posting it again
 * would fail again forever. So its rows are posted one by one, and a row refused alone goes to
 * the {@link DeadLetters} file, logged at ERROR with its call id, while the rest land.
 *
 * <p><b>When nothing can take a row.</b> With the database unreachable and the buffer full,
 * the thread holds its batch and takes no more from the queue; the queue fills, and then
 * {@link #record} refuses rows, which lets the gateway refuse billable calls rather than
 * serve calls it cannot account for. At {@link #close()}, what is still in memory goes to the
 * buffer past its bound (at most {@code maxQueuedRows} plus a batch), so that no accepted row
 * is dropped and the next start posts it.
 */
public final class SpendWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpendWriter.class);

    private final SpendSink sink;
    private final SpendBuffer buffer;
    private final DeadLetters deadLetters;
    private final SpendWriterOptions options;
    private final LongSupplier nanoTime;
    private final SpendQueue queue;
    private final Thread thread;

    // Written by the writer's thread only; volatile where status() reads them.
    /** The batch taken from the queue and not yet placed; empty when none. */
    private List<SpendRow> held = List.of();
    private volatile int heldRows;
    private volatile boolean reachable = true;
    private volatile String lastError = "";
    /** Posts that failed UNAVAILABLE since the last that succeeded. */
    private int failures;
    private long retryAt;
    private long outageStarted;
    private boolean bufferFullLogged;

    private SpendWriter(SpendSink sink, SpendBuffer buffer, SpendWriterOptions options, LongSupplier nanoTime) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        this.options = Objects.requireNonNull(options, "options");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.deadLetters = DeadLetters.beside(buffer);
        this.queue = new SpendQueue(options.maxQueuedRows(), options.maxBatchRows());
        this.thread = Thread.ofVirtual().name("sluice-spend-writer").unstarted(this::run);
    }

    /**
     * Starts the writer's thread. Rows already in {@code buffer} (left by an earlier run) are
     * posted first. The buffer stays the caller's to close, after this writer.
     */
    public static SpendWriter start(SpendSink sink, SpendBuffer buffer, SpendWriterOptions options) {
        return start(sink, buffer, options, System::nanoTime);
    }

    static SpendWriter start(SpendSink sink, SpendBuffer buffer, SpendWriterOptions options, LongSupplier nanoTime) {
        SpendWriter writer = new SpendWriter(sink, buffer, options, nanoTime);
        writer.thread.start();
        return writer;
    }

    /**
     * Hands a finished call's row to the writer. Never waits on the database or the disk, so
     * an event loop may call it.
     *
     * @return true when the row is kept: it will reach the database (or, refused there alone,
     *         the dead-letter file). False only when it cannot be kept anywhere: the queue in
     *         memory is full, which happens when the database is unreachable and the buffer on
     *         disk is full too, or the writer is closed. A caller that gets false should refuse
     *         billable work rather than serve it unaccounted.
     */
    public boolean record(SpendRow row) {
        Objects.requireNonNull(row, "row");
        return queue.offer(row);
    }

    /**
     * Waits until every row recorded before this call has been posted, or written to the
     * buffer on disk. Rows the buffer held already are not waited for.
     *
     * @return false when {@code timeout} passed first: the database is unreachable and the
     *         buffer full, or posting is slow
     */
    public boolean flush(Duration timeout) {
        try {
            return queue.awaitSettled(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What the writer holds now; never waits, so an event loop may ask. */
    public SpendWriterStatus status() {
        SpendBuffer.Totals onDisk = buffer.totals();
        return new SpendWriterStatus(queue.size() + heldRows, onDisk.rows(), onDisk.bytes(), reachable, lastError,
                deadLetters.added());
    }

    /**
     * Refuses rows from now on, settles the ones recorded (posted when the database answers,
     * else written to the buffer, past its bound if need be) and stops the thread. Rows left
     * in the buffer are posted by the next writer started on it. Idempotent.
     */
    @Override
    public void close() {
        queue.close();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (true) {
            boolean closing = queue.isClosed();
            try {
                if (held.isEmpty()) {
                    hold(queue.take(closing ? 0 : gatherNanos()));
                } else if (!closing) {
                    queue.pause(untilRetry());
                }
                if (!closing) {
                    replayOldest();
                }
                if (held.isEmpty()) {
                    if (closing) {
                        break;
                    }
                    continue;
                }
                List<SpendRow> batch = held;
                List<SpendRow> unplaced = place(batch, closing);
                // Let go of the placed rows before a flush that waits on them returns.
                hold(unplaced);
                queue.settled(batch.size() - unplaced.size());
            } catch (RuntimeException e) {
                // A fault of the disk or a bug, not of the database: say so, keep the thread, and
                // pause so that a fault that repeats does not spin.
                lastError = e.toString();
                if (closing) {
                    LOG.error("spend: closing with {} row(s) that could not be kept", held.size() + queue.size(), e);
                    break;
                }
                LOG.error("spend: writing spend failed; trying again in {} ms", options.retryMax().toMillis(), e);
                queue.pause(options.retryMax().toNanos());
            }
        }
        if (!buffer.isEmpty()) {
            LOG.info("spend: {} row(s) wait in the buffer in {}; the next start posts them", buffer.rows(), buffer.folder());
        }
    }

    private void hold(List<SpendRow> batch) {
        held = batch;
        heldRows = batch.size();
    }

    /** How long to gather rows for the next batch. */
    private long gatherNanos() {
        long interval = options.flushInterval().toNanos();
        if (buffer.isEmpty()) {
            return interval;  // nothing older waits: gather a batch
        }
        if (reachable) {
            return 0;  // a replay is under way: keep it going, and the queue with it
        }
        return Math.min(interval, untilRetry());  // an outage: the buffer is tried again when due
    }

    private long untilRetry() {
        return Math.max(0, retryAt - nanoTime.getAsLong());
    }

    /** Whether to try the sink now: it answered last time, or its retry is due (not while closing). */
    private boolean maySend(boolean closing) {
        return reachable || (!closing && untilRetry() == 0);
    }

    /** Posts the oldest chunk of the buffer when the sink may be tried, and removes it once posted. */
    private void replayOldest() {
        if (buffer.isEmpty() || !maySend(false)) {
            return;
        }
        SpendBuffer.Chunk chunk = buffer.oldest(options.maxBatchRows());
        if (post(chunk.rows()).isEmpty()) {
            buffer.remove(chunk);
        }
    }

    /**
     * Puts a batch where it belongs: the sink, when it answers and no older rows wait on disk;
     * else behind those rows in the buffer; else, the buffer being full, the sink after all;
     * and at close, the buffer past its bound.
     *
     * @return the rows still to place (a tail of {@code batch}); empty when all are placed
     */
    private List<SpendRow> place(List<SpendRow> batch, boolean closing) {
        List<SpendRow> rest = batch;
        if (buffer.isEmpty() && maySend(closing)) {
            rest = post(rest);
            if (rest.isEmpty()) {
                return rest;
            }
        }
        if (appendToBuffer(rest)) {
            return List.of();
        }
        if (maySend(closing)) {
            rest = post(rest);
            if (rest.isEmpty()) {
                return rest;
            }
        }
        if (closing) {
            keepAtClose(rest);
            return List.of();
        }
        return rest;
    }

    /**
     * Posts rows to the sink.
     *
     * @return the rows it could not take because it is unreachable (a tail of {@code rows});
     *         empty when all were posted, or set aside as dead letters
     */
    private List<SpendRow> post(List<SpendRow> rows) {
        if (rows.isEmpty()) {
            return rows;
        }
        try {
            sink.post(rows);
            answered();
            return List.of();
        } catch (RuntimeException e) {
            if (isUnavailable(e)) {
                unreachable(e);
                return rows;
            }
            return postEachAlone(rows);
        }
    }

    /**
     * The sink refused a batch for a reason other than being unreachable: posting it whole
     * would fail again forever, so post its rows one by one and set aside those refused alone.
     */
    private List<SpendRow> postEachAlone(List<SpendRow> rows) {
        for (int i = 0; i < rows.size(); i++) {
            SpendRow row = rows.get(i);
            try {
                sink.post(List.of(row));
                answered();
            } catch (RuntimeException e) {
                if (isUnavailable(e)) {
                    unreachable(e);
                    return List.copyOf(rows.subList(i, rows.size()));
                }
                lastError = String.valueOf(e.getMessage());
                LOG.error("spend: the database refused call {} ({}); its row is kept in {}", row.callId(),
                        e.getMessage(), deadLetters.file());
                deadLetters.add(row, String.valueOf(e.getMessage()));
            }
        }
        return List.of();
    }

    private static boolean isUnavailable(RuntimeException e) {
        return e instanceof StoreException store && store.reason() == StoreException.Reason.UNAVAILABLE;
    }

    private void answered() {
        failures = 0;
        if (!reachable) {
            reachable = true;
            LOG.info("spend: the database answers again, after {} s; {} row(s) in the buffer to post",
                    String.format("%.1f", (nanoTime.getAsLong() - outageStarted) / 1e9), buffer.rows());
        }
    }

    private void unreachable(RuntimeException e) {
        long now = nanoTime.getAsLong();
        failures++;
        retryAt = now + options.retryDelay(failures).toNanos();
        lastError = String.valueOf(e.getMessage());
        if (reachable) {
            reachable = false;
            outageStarted = now;
            LOG.warn("spend: the database is unreachable ({}); keeping spend in the buffer in {} until it answers",
                    e.getMessage(), buffer.folder());
        }
    }

    /** Appends to the buffer; false, logged once until an append succeeds, when it is full or failing. */
    private boolean appendToBuffer(List<SpendRow> rows) {
        try {
            if (buffer.append(rows)) {
                bufferFullLogged = false;
                return true;
            }
            if (!bufferFullLogged) {
                bufferFullLogged = true;
                LOG.error("spend: the buffer in {} is full ({} of {} bytes); rows wait in memory, and once {} do,"
                        + " calls are refused", buffer.folder(), buffer.bytes(), buffer.maxBytes(), options.maxQueuedRows());
            }
        } catch (UncheckedIOException e) {
            lastError = e.getMessage();
            if (!bufferFullLogged) {
                bufferFullLogged = true;
                LOG.error("spend: cannot write to the buffer; rows wait in memory", e);
            }
        }
        return false;
    }

    /** At close, rows nothing else took go to the buffer past its bound; failing that, to the dead letters. */
    private void keepAtClose(List<SpendRow> rows) {
        try {
            buffer.appendPastBound(rows);
            LOG.warn("spend: closing with the buffer full and the database unreachable; {} row(s) written past the"
                    + " buffer's bound of {} bytes", rows.size(), buffer.maxBytes());
        } catch (RuntimeException e) {
            LOG.error("spend: closing; cannot write {} row(s) to the buffer, keeping them in {}", rows.size(),
                    deadLetters.file(), e);
            rows.forEach(row -> deadLetters.add(row, "not posted at close: " + e.getMessage()));
        }
    }
}
