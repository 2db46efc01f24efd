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
 * A periodic job runs each round when the injected time says it is due, on either side of the
 * boundary, runs what it is asked for without waiting for the round, outlives a round that
 * fails, and ends its wait and its thread when closed. Fake time only: no sleeps.
 */
class PeriodicJobTest {
    private static final Duration EVERY = Duration.ofSeconds(3);

    private final FakeTime time = new FakeTime();
    private final JobRestarts restarts = new JobRestarts();
    private final Scheduler scheduler = time.scheduler(restarts);
    private final BlockingQueue<String> runs = new LinkedBlockingQueue<>();

    @AfterEach
    void close() {
        scheduler.close();
    }

    private PeriodicJob start(SupervisedLoop.Body round) {
        return scheduler.periodic("test-job", EVERY, round, () -> runs.add("asked at " + time.stamp()));
    }

    @Test
    void aRoundRunsWhenItIsDueAndNotBeforeAndTheRoundsKeepTheirRate() throws InterruptedException {
        start(() -> runs.add("round at " + time.stamp()));

        time.awaitWaiting(1);
        time.advance(EVERY.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(runs).as("a nanosecond before the first round").isEmpty();
        time.advance(Duration.ofNanos(1));
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("round at 3000");

        time.awaitWaiting(1);
        time.advance(EVERY.plusSeconds(1));
        assertThat(runs.poll(10, TimeUnit.SECONDS)).as("late, the round runs as soon as time has passed it").isEqualTo("round at 7000");
        time.awaitWaiting(1);
        time.advance(EVERY.minusSeconds(1).minusNanos(1));
        time.awaitWaiting(1);
        assertThat(runs).as("the next is due a period after the one before was due").isEmpty();
        time.advance(Duration.ofNanos(1));
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("round at 9000");
    }

    @Test
    void whatIsAskedForRunsWithoutWaitingForTheRoundAndTheRoundStaysDue() throws InterruptedException {
        PeriodicJob job = start(() -> runs.add("round at " + time.stamp()));
        time.awaitWaiting(1);
        time.advance(Duration.ofSeconds(1));
        time.awaitWaiting(1);

        job.ask();
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("asked at 1000");
        time.awaitWaiting(1);
        time.advance(Duration.ofSeconds(2).minusNanos(1));
        time.awaitWaiting(1);
        assertThat(runs).as("the round is still due at 3 s").isEmpty();
        time.advance(Duration.ofNanos(1));
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("round at 3000");
    }

    @Test
    void aRoundThatFailsIsCountedAndTheRoundsGoOnAfterTheBackOff() throws InterruptedException {
        AtomicInteger rounds = new AtomicInteger();
        start(() -> {
            runs.add("round at " + time.stamp());
            if (rounds.incrementAndGet() == 1) {
                throw new IllegalStateException("the first round fails (thrown by the test)");
            }
        });
        time.awaitWaiting(1);
        time.advance(EVERY);
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("round at 3000");
        time.awaitWaiting(1); // the restart's wait
        assertThat(restarts.of("test-job")).isEqualTo(1);

        time.advance(RestartBackoff.DEFAULT.first());
        time.awaitWaiting(1);
        time.advance(EVERY.minusNanos(1));
        time.awaitWaiting(1);
        assertThat(runs).as("restarted, the rounds begin a period later").isEmpty();
        time.advance(Duration.ofNanos(1));
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("round at 7000");
    }

    @Test
    void anAskedRunThatFailsRunsAgainOnceTheJobIsBack() throws InterruptedException {
        AtomicInteger asked = new AtomicInteger();
        PeriodicJob job = scheduler.periodic("test-job", EVERY, () -> runs.add("round at " + time.stamp()), () -> {
            runs.add("asked at " + time.stamp());
            if (asked.incrementAndGet() == 1) {
                throw new IllegalStateException("the first asked run fails (thrown by the test)");
            }
        });
        time.awaitWaiting(1);

        job.ask();
        assertThat(runs.poll(10, TimeUnit.SECONDS)).isEqualTo("asked at 0");
        time.awaitWaiting(1); // the restart's wait
        assertThat(restarts.of("test-job")).isEqualTo(1);
        time.advance(RestartBackoff.DEFAULT.first());
        assertThat(runs.poll(10, TimeUnit.SECONDS)).as("not asked again").isEqualTo("asked at 1000");
    }

    @Test
    void closeEndsTheWaitAndJoinsTheThread() throws InterruptedException {
        PeriodicJob job = start(() -> runs.add("round"));
        time.awaitWaiting(1);

        job.close();

        assertThat(job.thread().isAlive()).isFalse();
        assertThat(job.thread().getName()).isEqualTo("sluice-test-job");
        assertThat(runs).isEmpty();
        assertThat(restarts.of("test-job")).as("stopping is no failure").isZero();
    }
}
