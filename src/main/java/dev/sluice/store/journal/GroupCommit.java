package dev.sluice.store.journal;

import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import dev.sluice.time.Wakeup;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * <p>The thread is a job of the gateway's {@link Scheduler}, waiting on its time: a commit that
 * throws something other than an {@code IOException} (an {@code OutOfMemoryError}, a bug) is
 * logged and the commits start again after a back-off, so the journal's records still become
 * durable. Its waits, and those of whoever awaits durability, end early through one
 * {@link Wakeup}: a close ends the commit thread's, a commit ends the others'.
 */
final class GroupCommit implements AutoCloseable {
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
    private final Duration interval;
    private final Scheduler jobs;
    private final Wakeup wakeup;
    private volatile SupervisedLoop loop;
    private volatile long durable;
    private volatile boolean stopped;
    private boolean failureLogged;
    /** Sealed segments a failed commit did not force: the next commit forces them first. */
    private final List<FileChannel> carried = new ArrayList<>();
    /** A segment file was made since the folder was last forced. */
    private boolean folderDirty;

    /** Commits every {@link JournalOptions#commitInterval()} of the options' time, as a job of {@code jobs} once started. */
    GroupCommit(Source source, ForceHook hook, JournalOptions options, long durable, Scheduler jobs) {
        this.source = source;
        this.folder = options.folder();
        this.hook = hook;
        this.interval = options.commitInterval();
        this.durable = durable;
        this.jobs = jobs;
        this.wakeup = Wakeup.on(options.time());
    }

    /** Starts the commit thread, on a platform thread: a force blocks its carrier. */
    void start() {
        loop = jobs.loop(Thread.ofPlatform().daemon(), "spend-journal-commit", this::run);
    }

    /** The commit thread, once started: a close ends it. */
    Thread thread() {
        return loop.thread();
    }

    long durable() {
        return durable;
    }

    private void run() throws InterruptedException {
        while (!stopped) {
            wakeup.await(() -> stopped, interval);
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
        durable = Math.max(durable, work.written()); // commits are one at a time: no update is lost
        wakeup.wake();
        return true;
    }

    /** Waits until the records before {@code position} are forced; false when {@code timeout} passed first. */
    boolean awaitDurable(long position, Duration timeout) throws InterruptedException {
        return wakeup.await(() -> durable >= position, timeout);
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
        wakeup.wake();
        if (ThreadEnd.await(running.thread())) {
            Thread.currentThread().interrupt();
        }
    }
}
