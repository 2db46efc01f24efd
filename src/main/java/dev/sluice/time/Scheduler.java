package dev.sluice.time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every background job of the gateway runs: each job by its name, on a thread of its
 * own named {@code sluice-<job>}, supervised as a {@link SupervisedLoop} (a failure is logged
 * with the job's name, counted in {@link JobRestarts}, and the job runs again after a
 * back-off), waiting only as the {@link Supervision} it was given waits: the injected
 * {@link TimeSource}'s, so that a test moves fake time and the jobs due run, without sleeping.
 *
 * <h2>Design notes</h2>
 * <b>A thread per job, not a pool.</b> Jobs block on the store or on Redis; one waiting for a
 * database that is away must not hold back another's round. Virtual threads make that cheap;
 * a job that must run when the carriers are starved (the liveness check) asks for a platform
 * thread.
 *
 * <p><b>Closed by the composition root.</b> An owner stops its own jobs when it closes (as the
 * store's close stops its resets before the database goes); {@link #close()} then stops any
 * job still running and joins every thread, for at most {@link #JOIN_WAIT}, so no job outlives
 * the gateway that started it.
 */
public final class Scheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Scheduler.class);
    /** The longest {@link #close()} waits for the jobs' threads to end. */
    static final Duration JOIN_WAIT = Duration.ofSeconds(10);

    /** One round of a periodic job: does its work and says how long until the next round. */
    @FunctionalInterface
    public interface Round {
        Duration run() throws Exception;
    }

    private final Supervision supervision;
    private final List<SupervisedLoop> jobs = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Jobs that wait and restart as {@code supervision} says. */
    public Scheduler(Supervision supervision) {
        this.supervision = supervision;
    }

    /** Jobs on {@code time}, with {@link RestartBackoff#DEFAULT} and the process's restart count. */
    public static Scheduler on(TimeSource time) {
        return new Scheduler(Supervision.on(time));
    }

    /** Runs {@code round} every {@code interval}, the first after one interval, until the job is stopped. */
    public SupervisedLoop every(String job, Duration interval, Runnable round) {
        return repeat(job, interval, () -> {
            round.run();
            return interval;
        });
    }

    /**
     * Runs {@code round} after {@code firstWait}, then again after each wait it returns, until
     * the job is stopped. A round that fails is restarted, after the back-off, from the first wait.
     */
    public SupervisedLoop repeat(String job, Duration firstWait, Round round) {
        return loop(job, () -> {
            Duration next = firstWait;
            while (!Thread.currentThread().isInterrupted()) {
                sleep(next);
                next = round.run();
            }
        });
    }

    /** Runs {@code body} as the job {@code job} on a virtual thread; the body waits with {@link #sleep}. */
    public SupervisedLoop loop(String job, SupervisedLoop.Body body) {
        return loop(Thread.ofVirtual(), job, body);
    }

    /** As {@link #loop(String, SupervisedLoop.Body)}, on a thread {@code threads} makes. */
    public SupervisedLoop loop(Thread.Builder threads, String job, SupervisedLoop.Body body) {
        if (closed) {
            throw new IllegalStateException("job " + job + ": the scheduler is closed");
        }
        SupervisedLoop loop = SupervisedLoop.start(threads.name("sluice-" + job), job, body, supervision);
        jobs.add(loop);
        if (closed) {
            loop.interrupt(); // closed while it started: close() may have missed it
        }
        return loop;
    }

    /**
     * Runs {@code round} every {@code interval}, the first an interval from now, and
     * {@code asked} soon after each {@link PeriodicJob#ask}, until the job is closed.
     */
    public PeriodicJob periodic(String job, Duration interval, SupervisedLoop.Body round, SupervisedLoop.Body asked) {
        return PeriodicJob.start(this, job, interval, round, asked);
    }

    /** The scheduler's monotonic time, in nanoseconds. */
    LongSupplier ticker() {
        return supervision.ticker();
    }

    /** A wait on the scheduler's time that another thread can end early: how a worker waits for work or its next round. */
    public Wakeup wakeup() {
        return new Wakeup(supervision.sleeper(), supervision.ticker());
    }

    /** Waits {@code wait} on the scheduler's time: what a job's body waits with. */
    public void sleep(Duration wait) throws InterruptedException {
        supervision.sleeper().sleep(wait);
    }

    /** Stops every job still running and waits, for at most {@link #JOIN_WAIT}, for their threads to end. */
    @Override
    public void close() {
        closed = true;
        List<SupervisedLoop> running = new ArrayList<>(jobs);
        running.forEach(SupervisedLoop::interrupt);
        long deadline = supervision.ticker().getAsLong() + JOIN_WAIT.toNanos();
        for (SupervisedLoop job : running) {
            long left = deadline - supervision.ticker().getAsLong();
            try {
                if (left <= 0 || !job.thread().join(Duration.ofNanos(Math.max(left, 1)))) {
                    log.warn("background_job.still_running thread={} after_ms={}", job.thread().getName(), JOIN_WAIT.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
