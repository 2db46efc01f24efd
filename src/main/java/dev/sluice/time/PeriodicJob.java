package dev.sluice.time;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A job of the {@link Scheduler} that runs a round every interval and, between rounds, what
 * another thread {@link #ask asked} for: a heartbeat that also announces a change soon after
 * it happens, a renewal that also restores what a reconnection lost. Its waits are the
 * scheduler's, so on fake time a test moves time to either side of a round.
 *
 * <p>Rounds keep their rate: each is due an interval after the one before was due, and a
 * round missed (the job was busy, or restarting after a failure) is skipped, not made up.
 * A failure in a round or an asked run is the scheduler's to log and restart after its
 * back-off; the rounds then start again an interval later, and an asked run that failed runs
 * again first.
 */
public final class PeriodicJob implements AutoCloseable {
    /** The longest {@link #close} waits for the job's thread to end. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Duration interval;
    private final SupervisedLoop.Body round;
    private final SupervisedLoop.Body asked;
    private final Wakeup wakeup;
    private final LongSupplier ticker;
    private volatile boolean askedFor;
    private volatile boolean closed;
    private volatile SupervisedLoop loop;

    private PeriodicJob(Duration interval, SupervisedLoop.Body round, SupervisedLoop.Body asked, Wakeup wakeup,
            LongSupplier ticker) {
        this.interval = interval;
        this.round = round;
        this.asked = asked;
        this.wakeup = wakeup;
        this.ticker = ticker;
    }

    /** Starts {@code round} every {@code interval}, the first an interval from now, and {@code asked} when asked, as {@code job}. */
    static PeriodicJob start(Scheduler scheduler, String job, Duration interval, SupervisedLoop.Body round,
            SupervisedLoop.Body asked) {
        if (!interval.isPositive()) {
            throw new IllegalArgumentException("interval: " + interval + " (expected: > 0)");
        }
        PeriodicJob periodic = new PeriodicJob(interval, round, asked, scheduler.wakeup(), scheduler.ticker());
        periodic.loop = scheduler.loop(job, periodic::run);
        return periodic;
    }

    /** Runs the asked part soon, once however often it is asked before it runs; never waits. */
    public void ask() {
        askedFor = true;
        wakeup.wake();
    }

    /** The job's thread. */
    public Thread thread() {
        return loop.thread();
    }

    private void run() throws Exception {
        long next = ticker.getAsLong() + interval.toNanos();
        while (!closed) {
            wakeup.await(() -> closed || askedFor, Duration.ofNanos(next - ticker.getAsLong()));
            if (closed) {
                return;
            }
            if (askedFor) {
                askedFor = false; // cleared first: an ask while it runs runs it again
                try {
                    asked.run();
                } catch (Throwable failed) {
                    askedFor = true; // not done: run again once the job is back
                    throw failed;
                }
            }
            long now = ticker.getAsLong();
            if (now - next >= 0) {
                round.run();
                next += interval.toNanos();
                if (now - next >= 0) {
                    next = now + interval.toNanos();
                }
            }
        }
    }

    /** Stops the job, ending its wait, and joins its thread for at most {@link #CLOSE_WAIT}; a round under way finishes first. */
    @Override
    public void close() {
        closed = true;
        loop.stop();
        wakeup.wake();
        loop.join(CLOSE_WAIT); // one still running is warned about by the scheduler's close
    }
}
