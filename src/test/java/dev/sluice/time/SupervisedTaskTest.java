package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestSupervision;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A periodic task that throws, even an Error, is run again by its executor (which would
 * otherwise never run it again), skipping the runs within its back-off.
 */
class SupervisedTaskTest {
    private final TestSupervision time = new TestSupervision();

    @Test
    void aScheduledTaskThatThrowsAnErrorKeepsBeingRun() throws Exception {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger runs = new AtomicInteger();
        try {
            ScheduledFuture<?> scheduled = executor.scheduleWithFixedDelay(SupervisedTask.of("periodic", () -> {
                if (runs.getAndIncrement() == 0) {
                    throw TestSupervision.outOfMemory();
                }
            }, time.supervision()), 0, 1, TimeUnit.MILLISECONDS);
            Eventually.until("the first run failed", Duration.ofSeconds(5), () -> time.restarts().of("periodic") == 1);

            time.advance(Duration.ofSeconds(1)); // the wait after the failure is over
            Eventually.until("runs after the failure", Duration.ofSeconds(5), () -> runs.get() >= 3);

            assertThat(scheduled.isDone()).as("still scheduled").isFalse();
            assertThat(time.restarts().of("periodic")).isEqualTo(1);
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void runsWithinTheBackOffAreSkippedAndTheFirstAfterItIsMade() {
        AtomicInteger runs = new AtomicInteger();
        SupervisedTask task = SupervisedTask.of("skipping", () -> {
            if (runs.getAndIncrement() < 2) {
                throw new IllegalStateException("failing");
            }
        }, time.supervision());

        task.run(); // fails: the next run waits a second
        time.advance(Duration.ofSeconds(1).minusNanos(1));
        task.run();
        assertThat(runs).as("just before the wait ends: skipped").hasValue(1);
        time.advance(Duration.ofNanos(1));
        task.run(); // fails again: the next waits two seconds
        assertThat(runs).hasValue(2);
        time.advance(Duration.ofSeconds(2).minusNanos(1));
        task.run();
        assertThat(runs).hasValue(2);
        time.advance(Duration.ofNanos(1));
        task.run(); // succeeds: no wait from now on
        task.run();
        assertThat(runs).hasValue(4);
        assertThat(time.restarts().of("skipping")).isEqualTo(2);
    }
}
