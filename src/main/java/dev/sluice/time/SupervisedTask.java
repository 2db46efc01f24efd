package dev.sluice.time;

import java.time.Duration;

/**
 * A task a {@code ScheduledExecutorService} runs again and again that no failure ends. An
 * executor never runs a periodic task again once a run of it has thrown, and says nothing:
 * so every run here catches whatever is thrown, {@code Error}s included, logs it with the
 * job's name and counts a restart. After a failure the runs that fall within the
 * {@link RestartBackoff} wait are skipped, so a fault that repeats backs off as a
 * {@link SupervisedLoop} does; the first run that succeeds ends the back-off.
 */
public final class SupervisedTask implements Runnable {
    private final String job;
    private final Runnable task;
    private final Supervision supervision;
    /** Runs are made one at a time by the executor; these are read and written on its thread. */
    private int inARow;
    private long skipUntil;

    private SupervisedTask(String job, Runnable task, Supervision supervision) {
        this.job = job;
        this.task = task;
        this.supervision = supervision;
    }

    /** {@code task}, run as the job {@code job}. */
    public static SupervisedTask of(String job, Runnable task, Supervision supervision) {
        supervision.restarts().started(job);
        return new SupervisedTask(job, task, supervision);
    }

    @Override
    public void run() {
        long now = supervision.ticker().getAsLong();
        if (inARow > 0 && now - skipUntil < 0) {
            return;
        }
        try {
            task.run();
            inARow = 0;
        } catch (Throwable failure) {
            inARow++;
            Duration wait = supervision.backoff().after(inARow);
            skipUntil = now + wait.toNanos();
            supervision.failed(job, inARow, wait, failure);
        }
    }
}
