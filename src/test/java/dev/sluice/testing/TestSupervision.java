package dev.sluice.testing;

import dev.sluice.time.JobRestarts;
import dev.sluice.time.RestartBackoff;
import dev.sluice.time.Scheduler;
import dev.sluice.time.Supervision;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Background jobs' time for a test: every wait (a restart's, or a round's) is remembered and
 * moves a fake ticker instead of sleeping, and restarts are counted apart from the process's.
 */
public final class TestSupervision {
    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private final FakeTime time = new FakeTime();
    private final JobRestarts restarts = new JobRestarts();
    private final Supervision supervision = new Supervision(RestartBackoff.DEFAULT, wait -> {
        waits.add(wait);
        time.advance(wait);
        Thread.yield();
    }, time.ticker(), restarts);

    public Supervision supervision() {
        return supervision;
    }

    /** A scheduler whose jobs wait and restart as {@link #supervision()} says. */
    public Scheduler scheduler() {
        return new Scheduler(supervision);
    }

    public JobRestarts restarts() {
        return restarts;
    }

    /** Every wait spent so far, in order. */
    public List<Duration> waits() {
        return waits;
    }

    /** Moves the ticker ahead, as if the job had run for {@code step}. */
    public void advance(Duration step) {
        time.advance(step);
    }

    /** An {@code OutOfMemoryError} as the heap running out would throw it. */
    public static OutOfMemoryError outOfMemory() {
        return new OutOfMemoryError("Java heap space (thrown by the test)");
    }
}
