package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestSupervision;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A supervised loop survives whatever one run of it throws, Errors included, logging each
 * failure once with the job's name and backing off between failures in a row; stopped on
 * purpose, it stays stopped.
 */
class SupervisedLoopTest {
    private final TestSupervision time = new TestSupervision();
    private final Logger logger = (Logger) LoggerFactory.getLogger(Supervision.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @BeforeEach
    void attach() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
    }

    @Test
    void anOutOfMemoryErrorAStackOverflowAndAnExceptionEachRestartTheLoop() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Throwable[] failures = {TestSupervision.outOfMemory(), new StackOverflowError(), new IllegalStateException("broken")};
        SupervisedLoop loop = SupervisedLoop.start(Thread.ofVirtual(), "test-job", () -> {
            int run = runs.getAndIncrement();
            if (run < failures.length && failures[run] instanceof Error error) {
                throw error;
            }
            if (run < failures.length) {
                throw (RuntimeException) failures[run];
            }
        }, time.supervision());

        loop.thread().join(Duration.ofSeconds(5));

        assertThat(loop.thread().isAlive()).as("ended by returning").isFalse();
        assertThat(runs).hasValue(4);
        assertThat(time.restarts().of("test-job")).isEqualTo(3);
        assertThat(time.waits()).as("failures in a row back off, doubling")
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "background_job.failed job=test-job failures_in_a_row=1 restart_in_ms=1000 "
                        + "reason=\"java.lang.OutOfMemoryError: Java heap space (thrown by the test)\"",
                "background_job.failed job=test-job failures_in_a_row=2 restart_in_ms=2000 reason=\"java.lang.StackOverflowError\"",
                "background_job.failed job=test-job failures_in_a_row=3 restart_in_ms=4000 "
                        + "reason=\"java.lang.IllegalStateException: broken\"");
        assertThat(appender.list).allSatisfy(event -> assertThat(event.getLevel().toString()).isEqualTo("WARN"));
    }

    @Test
    void theBackOffIsCappedAndAFailureAfterALongEnoughRunStartsAgainFromTheFirstWait() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        SupervisedLoop loop = SupervisedLoop.start(Thread.ofVirtual(), "capped", () -> {
            int run = runs.getAndIncrement();
            if (run == 9) {
                // Ran just short of the longest wait: still a failure in a row.
                time.advance(RestartBackoff.DEFAULT.max().minusNanos(1));
            } else if (run == 10) {
                time.advance(RestartBackoff.DEFAULT.max()); // ran as long as the longest wait: a fresh failure
            }
            if (run <= 10) {
                throw new IllegalStateException("run " + run);
            }
        }, time.supervision());

        loop.thread().join(Duration.ofSeconds(5));

        assertThat(time.waits()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(32), Duration.ofSeconds(60),
                Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(1));
    }

    @Test
    void anInterruptedLoopIsNotRestartedWhateverItsInterruptionMadeItThrow() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        SupervisedLoop loop = SupervisedLoop.start(Thread.ofVirtual(), "interrupted", () -> {
            running.countDown();
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("a driver's error for the interrupt", e);
            }
        }, time.supervision());
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        loop.interrupt();
        loop.thread().join(Duration.ofSeconds(5));

        assertThat(loop.thread().isAlive()).isFalse();
        assertThat(time.restarts().of("interrupted")).isZero();
        assertThat(appender.list).isEmpty();
    }

    @Test
    void stopEndsARestartWaitAtOnceAndPreventsTheRestart() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        Supervision sleepsForAnHour = new Supervision(new RestartBackoff(Duration.ofHours(1), Duration.ofHours(1)), wait -> {
            waiting.countDown();
            Thread.sleep(wait);
        }, System::nanoTime, time.restarts());
        SupervisedLoop loop = SupervisedLoop.start(Thread.ofVirtual(), "stopped", () -> {
            runs.incrementAndGet();
            throw TestSupervision.outOfMemory();
        }, sleepsForAnHour);
        assertThat(waiting.await(5, TimeUnit.SECONDS)).as("waiting to restart").isTrue();

        loop.stop();
        loop.thread().join(Duration.ofSeconds(5));

        assertThat(loop.thread().isAlive()).as("the hour's wait was cut short").isFalse();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aJobIsListedAtZeroFromItsStartAndEachRestartIsCounted() {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch never = new CountDownLatch(1);
        SupervisedLoop quiet = SupervisedLoop.start(Thread.ofVirtual(), "quiet", never::await, time.supervision());
        SupervisedLoop.start(Thread.ofVirtual(), "failing", () -> {
            if (runs.getAndIncrement() < 2) {
                throw TestSupervision.outOfMemory();
            }
        }, time.supervision());

        Eventually.until("two restarts", Duration.ofSeconds(5), () -> time.restarts().of("failing") == 2);
        assertThat(time.restarts().totals()).containsEntry(java.util.List.of("quiet"), 0.0)
                .containsEntry(java.util.List.of("failing"), 2.0);
        quiet.interrupt();
    }
}
