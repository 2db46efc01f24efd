package dev.sluice.time;

import java.time.Duration;

/**
 * A background job's loop on a thread of its own that no failure ends: whatever the loop
 * throws (a {@code RuntimeException}, an {@code OutOfMemoryError}, a {@code StackOverflowError})
 * is logged with the job's name, counted in {@link JobRestarts}, and the loop is run again
 * after the {@link RestartBackoff} wait.
 *
 * <h2>Design notes</h2>
 * <b>Stopped on purpose, it stays stopped.</b> The loop ends the job by returning, or by
 * throwing {@link InterruptedException}; a failure while the thread is interrupted is the
 * job being stopped, not a fault. A job stopped by a flag of its own (not by an interrupt)
 * calls {@link #stop} too, which ends a restart wait at once and prevents the next restart,
 * so a close never waits out a back-off.
 *
 * <p><b>Failures in a row back off; a failure after a good run does not.</b> A loop that ran
 * at least {@link RestartBackoff#max()} before it failed restarts after
 * {@link RestartBackoff#first()}; one that fails again at once waits twice as long each
 * time, so a fault that repeats costs a log line a minute, not a spinning thread.
 *
 * <p>Why not let the thread die: nothing else notices. A dead callback sender drops every
 * record from then on, a dead sync serves stale models, and a dead budget reset leaves
 * spenders blocked, while the gateway still answers its probes.
 */
public final class SupervisedLoop {

    /** One run of a job's loop: returns (or is interrupted) when the job is stopped. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final String job;
    private final Body body;
    private final Supervision supervision;
    private final Thread thread;
    /** Guards {@link #stopped} and {@link #waiting}, so a stop either prevents a wait or interrupts it. */
    private final Object lock = new Object();
    private boolean stopped;
    private boolean waiting;

    private SupervisedLoop(Thread.Builder threads, String job, Body body, Supervision supervision) {
        this.job = job;
        this.body = body;
        this.supervision = supervision;
        this.thread = threads.unstarted(this::supervise);
    }

    /** Starts {@code body} on a thread {@code threads} makes, as the job {@code job}. */
    public static SupervisedLoop start(Thread.Builder threads, String job, Body body, Supervision supervision) {
        SupervisedLoop loop = new SupervisedLoop(threads, job, body, supervision);
        supervision.restarts().started(job);
        loop.thread.start();
        return loop;
    }

    /** The thread the loop runs on. */
    public Thread thread() {
        return thread;
    }

    /** Restarts the loop no more and ends a restart wait; the loop itself is stopped the job's own way. */
    public void stop() {
        synchronized (lock) {
            stopped = true;
            if (waiting) {
                thread.interrupt();
            }
        }
    }

    /**
     * Waits, for at most {@code wait}, for the loop's thread to end, once its owner has told the
     * job to stop: an owner's close joins its job as {@link Scheduler#close()} joins every job.
     *
     * @return whether the thread has ended; false too when the caller was interrupted, its
     *         interrupt then set again
     */
    public boolean join(Duration wait) {
        try {
            return thread.join(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Interrupts the loop's thread and prevents restarts: for a job stopped by an interrupt. */
    public void interrupt() {
        stop();
        thread.interrupt();
    }

    private void supervise() {
        int inARow = 0;
        while (true) {
            long startedAt = supervision.ticker().getAsLong();
            try {
                body.run();
                return;
            } catch (InterruptedException e) {
                return;
            } catch (Throwable failure) {
                if (Thread.currentThread().isInterrupted()) {
                    return; // stopping: what the interrupt broke is no fault of the job
                }
                long ranNanos = supervision.ticker().getAsLong() - startedAt;
                inARow = ranNanos >= supervision.backoff().max().toNanos() ? 1 : inARow + 1;
                Duration wait = supervision.backoff().after(inARow);
                supervision.failed(job, inARow, wait, failure);
                if (!waitToRestart(wait)) {
                    return;
                }
            }
        }
    }

    /** Waits {@code wait}; false when the job was stopped before or during it. */
    private boolean waitToRestart(Duration wait) {
        synchronized (lock) {
            if (stopped) {
                return false;
            }
            waiting = true;
        }
        try {
            supervision.sleeper().sleep(wait);
        } catch (InterruptedException e) {
            return false;
        } finally {
            synchronized (lock) {
                waiting = false;
            }
        }
        synchronized (lock) {
            return !stopped;
        }
    }
}
