package dev.sluice.store.journal;

import dev.sluice.store.SpendRow;
import dev.sluice.time.Scheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local, append-only log of finished calls' {@link SpendRow}s, kept until a
 * {@link JournalShipper} has posted them to the database. Every row is written here before
 * the call's answer ends, so a row a caller was charged for survives a crash of the process.
 *
 * <pre>{@code
 * SpendJournal journal = SpendJournal.open(JournalOptions.in(Path.of("spend-journal"), time), jobs);
 * JournalShipper shipper = JournalShipper.start(journal, new SpendLedger(database, time.clock()), ShipperOptions.DEFAULTS, jobs);
 * ...
 * if (!journal.append(row).accepted()) { ... refuse billable calls: spend could not be kept ... }
 * ...
 * shipper.close();   // ships what is left within its deadline
 * journal.close();   // then database.close()
 * }</pre>
 *
 * <h2>Design notes</h2>
 * <p><b>Append.</b> A row is encoded ({@link RecordCodec}) on the caller's thread, then
 * written, under a lock held only for the write, to the end of the active segment: a plain
 * write to the operating system, no fsync, so an event loop may call it. About 1.2 µs, most
 * of it the write system call (SpendJournalBenchmark).
 *
 * <p><b>Durability.</b> The {@link GroupCommit} forces the segments every
 * {@link JournalOptions#commitInterval} in which something was written: a crash of the process
 * loses nothing, a power loss at most the rows of the last commit interval.
 *
 * <p><b>Segments.</b> Segment files laid end to end: a journal position is a byte offset into
 * that run, from the oldest segment found at open. A segment is sealed at
 * {@link JournalOptions#segmentBytes}, and deleted, unless active, once all of it is acknowledged.
 *
 * <p><b>Bound.</b> An append past {@link JournalOptions#maxBytes} is refused
 * ({@link AppendResult.Outcome#FULL}), never dropped silently; 80 % of it is logged at WARN.
 *
 * <p><b>Replay.</b> Opening a folder an earlier process left reads every segment once,
 * counting intact records and skipping damaged ones with a warning; records after the
 * {@link AckCheckpoint} (rewritten after each acknowledgement, never forced, so it can lag)
 * are pending again, and appends go to a new segment. Shipping a batch twice changes nothing
 * ({@link JournalShipper}); the folder's {@link JournalId id} tells it from any other.
 */
public final class SpendJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SpendJournal.class);

    private final JournalOptions options;
    /** The folder's id, and the first segment this process makes. */
    final JournalId id;
    private final SegmentFiles.Lock folderLock;
    /** Forces the segments; the reader hands over only what it forced. */
    final GroupCommit commit;
    private final ReentrantLock lock = new ReentrantLock();
    /** Where the shipper is; a legacy import, before shipping starts, reads what is pending through it. */
    final JournalReader reader;
    private final AckCheckpoint checkpoint;
    private final FillWarning fill;

    // Guarded by lock.
    private final ArrayDeque<Segment> segments = new ArrayDeque<>();
    private final List<FileChannel> sealedSinceCommit = new ArrayList<>();
    private Segment active;
    private long nextSequence;
    private long bytesOnDisk;
    private boolean newFileSinceCommit;
    private boolean closed;
    private boolean failureLogged;

    private volatile long written;
    /** Whether the journal is open and under its bound, for {@link #accepting()}: written under the lock, read without it. */
    private volatile boolean roomy;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    private SpendJournal(JournalOptions options, SegmentFiles.Lock folderLock, SegmentFiles.Recovered recovered,
            ForceHook hook, Scheduler jobs) {
        this.options = options;
        this.id = JournalId.of(options.folder(), recovered.segments().isEmpty(), recovered.nextSequence());
        this.folderLock = folderLock;
        segments.addAll(recovered.segments());
        nextSequence = recovered.nextSequence();
        written = segments.isEmpty() ? 0 : segments.getLast().end();
        bytesOnDisk = written;
        roomy = bytesOnDisk < options.maxBytes();
        pending.set(recovered.records());
        skipped.set(recovered.skipped());
        this.reader = new JournalReader(this, recovered.start());
        this.checkpoint = new AckCheckpoint(options.folder());
        this.fill = new FillWarning(options.folder(), options.maxBytes());
        this.commit = new GroupCommit(this::takeCommitWork, hook, options, written, jobs);
    }

    /**
     * Opens the journal in {@link JournalOptions#folder()}, making its records left by an
     * earlier process pending again, and starts the group commit on {@code jobs}.
     *
     * @throws IllegalStateException when another journal has the folder open
     * @throws UncheckedIOException  when the folder or its segments cannot be read
     */
    public static SpendJournal open(JournalOptions options, Scheduler jobs) {
        return open(options, ForceHook.DISK, jobs);
    }

    static SpendJournal open(JournalOptions options, ForceHook hook, Scheduler jobs) {
        Objects.requireNonNull(options, "options");
        SegmentFiles.Lock folderLock = SegmentFiles.lock(options.folder());
        try {
            SegmentFiles.Recovered recovered = SegmentFiles.recover(options.folder());
            SpendJournal journal = new SpendJournal(options, folderLock, recovered, hook, jobs);
            if (!recovered.segments().isEmpty()) {
                LOG.info("spend journal {}: {} record(s) in {} segment(s) left by an earlier run, to ship{}",
                        options.folder(), recovered.records(), recovered.segments().size(),
                        recovered.skipped() == 0 ? "" : "; " + recovered.skipped() + " damaged record(s) skipped");
            }
            journal.commit.start();
            return journal;
        } catch (RuntimeException e) {
            folderLock.close();
            throw e;
        }
    }

    /** The folder's id, which a sink keys its {@link dev.sluice.store.JournalMark marks} by. */
    public String id() {
        return id.value();
    }

    public JournalOptions options() {
        return options;
    }

    /** Whether an append now would most likely be taken (open, under its bound); lock-free, for every call. */
    public boolean accepting() {
        return roomy;
    }

    /**
     * Writes the row at the end of the journal. Never waits on the disk (no fsync), so an event
     * loop may call it; safe from any number of threads at once.
     *
     * @return {@link AppendResult#accepted() accepted} with the position past the row, or the
     *         reason it was refused: the journal is at its bound, closed, or the disk failed.
     *         A refused row is kept nowhere
     * @throws IllegalArgumentException when the row encodes to more than a record may hold
     */
    public AppendResult append(SpendRow row) {
        RecordCodec.Encoded encoded = RecordCodec.prepare(Objects.requireNonNull(row, "row"));
        ByteBuffer frame = encoded.frame(options.time().clock().millis());
        long position;
        lock.lock();
        try {
            if (closed) {
                return AppendResult.CLOSED;
            }
            if (bytesOnDisk + frame.remaining() > options.maxBytes()) {
                refused.incrementAndGet();
                return AppendResult.FULL;
            }
            position = write(frame);
            if (position < 0) {
                return AppendResult.FAILED;
            }
            // Counted before the shipper can see the record, so the count never goes below zero.
            pending.incrementAndGet();
            fill.grew(bytesOnDisk, pending.get());
        } finally {
            lock.unlock();
        }
        return new AppendResult(AppendResult.Outcome.ACCEPTED, position);
    }

    /** Writes a frame to the active segment; the position past it, or -1 when the disk refused (logged). */
    private long write(ByteBuffer frame) {
        int bytes = frame.remaining();
        Segment segment = active;
        try {
            if (segment == null) {
                segment = startSegment();
            }
            long at = segment.size;
            try {
                while (frame.hasRemaining()) {
                    segment.appending.write(frame, at + (bytes - frame.remaining()));
                }
            } catch (IOException e) {
                // Cut off what part was written, so no torn frame sits before the next one.
                segment.appending.truncate(at);
                throw e;
            }
        } catch (IOException e) {
            if (!failureLogged) {
                failureLogged = true;
                LOG.error("spend journal {}: cannot write; rows are refused until a write succeeds", options.folder(), e);
            }
            return -1;
        }
        failureLogged = false;
        segment.size += bytes;
        segment.records++;
        bytesOnDisk += bytes;
        roomy = bytesOnDisk < options.maxBytes();
        written = segment.end();
        if (segment.size >= options.segmentBytes()) {
            seal();
        }
        return written;
    }

    private Segment startSegment() throws IOException {
        // Segments lie end to end, so a new one starts where the last row written ended.
        Segment segment = new Segment(nextSequence, options.folder().resolve(Segment.name(nextSequence)), written,
                false);
        segment.appending = SegmentFiles.create(segment.file);
        nextSequence++;
        segments.addLast(segment);
        active = segment;
        newFileSinceCommit = true;
        return segment;
    }

    /** Ends the active segment; the group commit forces and closes its file. */
    private void seal() {
        if (active != null) {
            sealedSinceCommit.add(active.appending);
            active.appending = null;
            active = null;
        }
    }

    private GroupCommit.Work takeCommitWork(long durable) {
        lock.lock();
        try {
            if (written == durable && sealedSinceCommit.isEmpty() && !newFileSinceCommit) {
                return null;
            }
            GroupCommit.Work work = new GroupCommit.Work(written, active == null ? null : active.appending,
                    List.copyOf(sealedSinceCommit), newFileSinceCommit);
            sealedSinceCommit.clear();
            newFileSinceCommit = false;
            return work;
        } finally {
            lock.unlock();
        }
    }

    /** The journal position past the last row accepted. */
    public long written() {
        return written;
    }

    /**
     * Waits until the group commit has forced every row before {@code position} (an
     * {@link AppendResult#position()}) to the disk.
     *
     * @return false when {@code timeout} passed first
     */
    public boolean awaitDurable(long position, Duration timeout) throws InterruptedException {
        return commit.awaitDurable(position, timeout);
    }

    /**
     * Forces every row accepted so far to the disk now, on the caller's thread.
     *
     * @return false when the disk refused (logged)
     */
    public boolean sync() {
        return commit.commit();
    }

    /** What the journal holds now. Reads a record's header from the disk when the oldest pending one changed. */
    public JournalStatus status() {
        long bytes;
        int files;
        lock.lock();
        try {
            bytes = bytesOnDisk;
            files = segments.size();
        } finally {
            lock.unlock();
        }
        long waiting = pending.get();
        Duration age = waiting == 0 ? Duration.ZERO : reader.oldestPendingAge(options.time().clock().millis());
        return new JournalStatus(bytes, options.maxBytes(), waiting, age, files, skipped.get(), refused.get(),
                commit.durable());
    }

    // The shipper's side: reading pending records in order and acknowledging them.

    /** Reads up to {@code maxRows} pending records after those read last. Called by one thread only. */
    JournalBatch read(int maxRows) {
        return reader.read(maxRows);
    }

    /**
     * Marks the records of {@code batch} shipped, and deletes the sealed segments all of whose
     * records now are. Batches must be acknowledged in the order they were read.
     */
    void acknowledge(JournalBatch batch) {
        List<Segment> done = new ArrayList<>();
        lock.lock();
        try {
            reader.acknowledged(batch);
            while (!segments.isEmpty() && segments.getFirst() != active
                    && segments.getFirst().end() <= batch.end()) {
                Segment segment = segments.removeFirst();
                bytesOnDisk -= segment.size;
                roomy = bytesOnDisk < options.maxBytes();
                done.add(segment);
            }
            Segment first = segments.peekFirst();
            checkpoint.write(first == null ? new AckCheckpoint.Mark(nextSequence, 0)
                    : new AckCheckpoint.Mark(first.sequence, batch.end() - first.base));
            fill.shrank(bytesOnDisk);
        } finally {
            lock.unlock();
        }
        pending.addAndGet(-batch.rows().size());
        for (Segment segment : done) {
            reader.forget(segment);
            SegmentFiles.delete(segment);
        }
    }

    /** The journal position up to which every record is acknowledged. */
    long acknowledged() {
        return reader.acknowledged();
    }

    /** Counts damaged records the reader met in segments written by this process. */
    void skippedLive(int count) {
        skipped.addAndGet(count);
    }

    /** The segment holding journal position {@code position}, and whether it may still grow; null past the end. */
    Segment segmentAt(long position) {
        lock.lock();
        try {
            for (Segment segment : segments) {
                if (position < segment.end() || (segment == active && position == segment.end())) {
                    return segment;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    boolean isActive(Segment segment) {
        lock.lock();
        try {
            return segment == active;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses appends from now on, seals the active segment, forces everything to the disk and
     * releases the folder. Pending records stay for the next open. Idempotent.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            roomy = false;
            seal();
        } finally {
            lock.unlock();
        }
        commit.close();
        commit.commit();
        reader.close();
        lock.lock();
        try {
            checkpoint.close();
        } finally {
            lock.unlock();
        }
        folderLock.close();
    }
}
