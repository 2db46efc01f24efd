package dev.sluice.store.journal;

import dev.sluice.time.SupervisedLoop;
import dev.sluice.time.Supervision;
import dev.sluice.time.TimeSource;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's one fsync: a thread that, every commit interval in which something was
 * written, forces the segments written since the last commit and then marks their records
 * durable. Appenders never wait for it; whoever needs a record on the disk (a test, close)
 * {@link #awaitDurable waits} or {@link #commit commits} now.
 *
 * <p>A segment sealed since the last commit is forced and closed here, not by the appender
 * that sealed it, and the folder is forced after a new segment file was made, so that the
 * file's name is as durable as its records.
 *
 * <p>The thread runs as a {@link SupervisedLoop}: a commit that throws something other than
 * an {@code IOException} (an {@code OutOfMemoryError}, a bug) is logged and the commits start
 * again after a back-off, so the journal's records still become durable.
 */
final class GroupCommit implements AutoCloseable {
    /**
     * What the waits on a monitor here are measured against: {@code Object.wait} counts the
     * process's own time, so the deadlines it is given must too, whatever time the gateway runs on.
     */
    private static final TimeSource REAL_TIME = TimeSource.system();
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

    /** What to force in one commit, taken from the journal at one moment. */
    record Work(long written, FileChannel active, List<FileChannel> sealed, boolean newFiles) {}

    /** Gives the commit its work; empty work (null) when nothing was written since {@code durable}. */
    @FunctionalInterface
    interface Source {
        Work take(long durable);
    }

    private final Source source;
    private final Path folder;
    private final ForceHook hook;
    private final long intervalNanos;
    private volatile SupervisedLoop loop;
    private final Object durableChanged = new Object();
    private volatile long durable;
    private volatile boolean stopped;
    private boolean failureLogged;
    /** Sealed segments a failed commit did not force: the next commit forces them first. */
    private final List<FileChannel> carried = new ArrayList<>();
    /** A segment file was made since the folder was last forced. */
    private boolean folderDirty;

    GroupCommit(Source source, Path folder, ForceHook hook, Duration interval, long durable) {
        this.source = source;
        this.folder = folder;
        this.hook = hook;
        this.intervalNanos = interval.toNanos();
        this.durable = durable;
    }

    void start() {
        start(Supervision.system());
    }

    void start(Supervision supervision) {
        loop = SupervisedLoop.start(Thread.ofPlatform().daemon().name("sluice-spend-journal-commit"), "spend-journal-commit",
                this::run, supervision);
    }

    long durable() {
        return durable;
    }

    private void run() {
        while (!stopped) {
            LockSupport.parkNanos(this, intervalNanos);
            if (!stopped) {
                commit();
            }
        }
    }

    /**
     * Forces what was written since the last commit, now, on the caller's thread.
     *
     * @return false when a force failed (logged); the records stay not durable and the next
     *         commit tries again
     */
    synchronized boolean commit() {
        Work work = source.take(durable);
        if (work == null && carried.isEmpty()) {
            return true;
        }
        if (work == null) {
            work = new Work(durable, null, List.of(), false);
        }
        carried.addAll(work.sealed());
        folderDirty |= work.newFiles();
        try {
            while (!carried.isEmpty()) {
                FileChannel sealed = carried.getFirst();
                hook.force(sealed);
                sealed.close();
                carried.removeFirst();
            }
            if (work.active() != null && work.active().isOpen()) {
                hook.force(work.active());
            }
            if (folderDirty) {
                SegmentFiles.forceFolder(folder, hook);
                folderDirty = false;
            }
        } catch (IOException e) {
            if (!failureLogged) {
                failureLogged = true;
                LOG.error("spend journal {}: cannot force segments to the disk; accepted rows are not yet durable",
                        folder, e);
            }
            return false;
        }
        failureLogged = false;
        synchronized (durableChanged) {
            durable = Math.max(durable, work.written());
            durableChanged.notifyAll();
        }
        return true;
    }

    /** Waits until the records before {@code position} are forced; false when {@code timeout} passed first. */
    boolean awaitDurable(long position, Duration timeout) throws InterruptedException {
        long deadline = REAL_TIME.nanos() + timeout.toNanos();
        synchronized (durableChanged) {
            while (durable < position) {
                long left = deadline - REAL_TIME.nanos();
                if (left <= 0) {
                    return false;
                }
                durableChanged.wait(Math.max(1, left / 1_000_000));
            }
        }
        return true;
    }

    /** Stops the thread; the caller commits once more after its last write. Idempotent. */
    @Override
    public void close() {
        stopped = true;
        SupervisedLoop running = loop;
        if (running == null) {
            return;
        }
        running.stop();
        LockSupport.unpark(running.thread());
        if (ThreadEnd.await(running.thread())) {
            Thread.currentThread().interrupt();
        }
    }
}
