package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler runs each job when the injected time says it is due, on either side of the
 * boundary, supervises it (a failure is counted and the job comes back after the back-off,
 * on the same time), and stops and joins every job when closed. Fake time only: no sleeps.
 */
class SchedulerTest {
    private static final Duration EVERY = Duration.ofSeconds(10);

    private final FakeTime time = new FakeTime();
    private final JobRestarts restarts = new JobRestarts();
    private final Scheduler scheduler = new Scheduler(supervision(time.source(), restarts));
    private final BlockingQueue<Long> rounds = new LinkedBlockingQueue<>();

    @AfterEach
    void close() {
        scheduler.close();
    }

    @Test
    void aPeriodicJobRunsWhenItsIntervalHasPassedAndNotBefore() throws InterruptedException {
        scheduler.every("test-job", EVERY, () -> rounds.add(time.elapsed().toNanos()));

        time.awaitWaiting(1);
        time.advance(EVERY.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(rounds).as("a nanosecond before it is due").isEmpty();

        time.advance(Duration.ofNanos(1));
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).isEqualTo(EVERY.toNanos());

        time.awaitWaiting(1);
        time.advance(EVERY);
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).as("the next round, an interval later").isEqualTo(2 * EVERY.toNanos());
    }

    @Test
    void aRoundWaitsAsLongAsTheRoundBeforeItSaid() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        scheduler.repeat("test-job", Duration.ZERO, () -> {
            rounds.add(time.elapsed().toNanos());
            return Duration.ofSeconds(runs.incrementAndGet());
        });

        assertThat(rounds.poll(10, TimeUnit.SECONDS)).as("no first wait").isZero();
        time.awaitWaiting(1);
        time.advance(Duration.ofSeconds(1));
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(1).toNanos());
        time.awaitWaiting(1);
        time.advance(Duration.ofSeconds(1));
        time.awaitWaiting(1);
        assertThat(rounds).as("the second round asked for two seconds").isEmpty();
        time.advance(Duration.ofSeconds(1));
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).isEqualTo(Duration.ofSeconds(3).toNanos());
    }

    @Test
    void aFailedRoundIsCountedAndTheJobRunsAgainAfterTheBackOff() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        scheduler.every("test-job", EVERY, () -> {
            rounds.add(time.elapsed().toNanos());
            if (runs.getAndIncrement() == 0) {
                throw new OutOfMemoryError("Java heap space (thrown by the test)");
            }
        });
        assertThat(restarts.of("test-job")).as("listed from the start").isZero();

        time.awaitWaiting(1);
        time.advance(EVERY);
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).isEqualTo(EVERY.toNanos());
        time.awaitWaiting(1);
        assertThat(restarts.of("test-job")).isEqualTo(1);

        // The restart waits out the back-off, then the job's own first wait.
        time.advance(RestartBackoff.DEFAULT.first());
        time.awaitWaiting(1);
        time.advance(EVERY.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(rounds).isEmpty();
        time.advance(Duration.ofNanos(1));
        assertThat(rounds.poll(10, TimeUnit.SECONDS)).isEqualTo(2 * EVERY.toNanos() + RestartBackoff.DEFAULT.first().toNanos());
    }

    @Test
    void closingStopsAndJoinsEveryJob() throws InterruptedException {
        SupervisedLoop waiting = scheduler.every("waiting-job", EVERY, () -> {});
        SupervisedLoop platform = scheduler.loop(Thread.ofPlatform().daemon(), "platform-job", () -> scheduler.sleep(EVERY));
        time.awaitWaiting(2);
        assertThat(waiting.thread().getName()).isEqualTo("sluice-waiting-job");
        assertThat(platform.thread().getName()).isEqualTo("sluice-platform-job");

        scheduler.close();

        assertThat(waiting.thread().isAlive()).isFalse();
        assertThat(platform.thread().isAlive()).isFalse();
        assertThat(restarts.of("waiting-job")).as("stopping is no failure").isZero();
    }

    private static Supervision supervision(TimeSource time, JobRestarts restarts) {
        return new Supervision(RestartBackoff.DEFAULT, time::sleep, time.ticker(), restarts);
    }
}
