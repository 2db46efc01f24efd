package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.Backoff;
import dev.sluice.time.JobRestarts;
import dev.sluice.time.RestartBackoff;
import dev.sluice.time.Scheduler;
import dev.sluice.time.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A callback's queue and sender: a full queue drops and warns once; a batch the receiver
 * cannot take now is posted again after each backoff wait, read off a fake clock and a seeded
 * random source; a refused batch is not posted again; shutdown flushes what is queued.
 */
class CallbackQueueTest {
    private static final Backoff BACKOFF = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(60));
    private static final long SEED = 42;
    /** The jobs of the tests that watch a sender on the system's time; each queue's close stops its own. */
    private static final Scheduler JOBS = Scheduler.on(TimeSource.system());

    private final FakeClock clock = new FakeClock();
    private final List<Duration> waits = new ArrayList<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(CallbackQueue.class);
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

    /** A fake wait: the clock moves by it, and it is remembered. */
    private Pacing pacing() {
        LongSupplier ticker = () -> Duration.between(FakeClock.START, clock.instant()).toNanos();
        return new Pacing(new TimeSource(clock, ticker, until -> {
            Duration wait = Duration.ofNanos(until - ticker.getAsLong());
            waits.add(wait);
            clock.advance(wait);
        }), new Random(SEED), BACKOFF);
    }

    private CallbackQueue queue(BatchSender sender, int capacity, int attempts) {
        return new CallbackQueue("generic_api", sender,
                new CallbackQueue.Limits(capacity, 10, Duration.ZERO, attempts, Duration.ofSeconds(5)), pacing(), new CallbackCounters());
    }

    /** A receiver answering each post with the next of {@code results}, then delivering; it counts the posts. */
    private static final class Scripted implements BatchSender {
        final Deque<SendResult> results;
        final List<List<CallRecord>> posts = new CopyOnWriteArrayList<>();

        Scripted(SendResult... results) {
            this.results = new ArrayDeque<>(List.of(results));
        }

        @Override
        public SendResult send(List<CallRecord> batch) {
            posts.add(List.copyOf(batch));
            return results.isEmpty() ? SendResult.DELIVERED : results.poll();
        }
    }

    private List<String> warnings(String event) {
        return appender.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.startsWith(event)).toList();
    }

    @Test
    void aFullQueueDropsWhatComesNextCountsEveryDropAndWarnsOnce() {
        CallbackQueue queue = queue(new Scripted(), 2, 5);

        for (int i = 0; i < 5; i++) {
            queue.offer(Records.served("c" + i));
        }

        assertThat(queue.counters().dropped()).isEqualTo(3);
        assertThat(warnings("callback.queue_full")).hasSize(1).first().asString()
                .contains("callback=generic_api").contains("capacity=2");
    }

    @Test
    void aFullQueueWarnsAgainOnlyAfterItHasEmptied() throws Exception {
        CallbackQueue queue = queue(new Scripted(), 1, 5);
        queue.offer(Records.served("a"));
        queue.offer(Records.served("dropped"));

        assertThat(queue.takeBatch()).hasSize(1);
        assertThat(queue.takeBatch()).as("the queue is empty: the episode is over").isEmpty();
        queue.offer(Records.served("b"));
        queue.offer(Records.served("dropped again"));

        assertThat(queue.counters().dropped()).isEqualTo(2);
        assertThat(warnings("callback.queue_full")).hasSize(2);
    }

    @Test
    void aBatchTheReceiverCannotTakeNowIsPostedAgainAfterEachBackoffWait() throws Exception {
        Scripted receiver = new Scripted(new SendResult.Failed("ConnectException", Optional.empty()),
                new SendResult.Failed("answered 503", Optional.empty()));
        CallbackQueue queue = queue(receiver, 10, 5);

        queue.deliver(List.of(Records.served("a"), Records.served("b")));

        Random expected = new Random(SEED);
        assertThat(waits).containsExactly(Duration.ofMillis(expected.nextLong(501)), Duration.ofMillis(expected.nextLong(1001)));
        assertThat(clock.instant()).isEqualTo(FakeClock.START.plus(waits.get(0)).plus(waits.get(1)));
        assertThat(receiver.posts).hasSize(3).allSatisfy(post -> assertThat(post).hasSize(2));
        assertThat(queue.counters().sent()).isEqualTo(2);
        assertThat(queue.counters().failed()).isZero();
    }

    @Test
    void aReceiverThatAsksToWaitIsWaitedForAtLeastThatLong() throws Exception {
        CallbackQueue queue = queue(new Scripted(SendResult.ofStatus(429, Optional.of(Duration.ofSeconds(3)))), 10, 5);

        queue.deliver(List.of(Records.served("a")));

        assertThat(waits).containsExactly(Duration.ofSeconds(3));
        assertThat(queue.counters().sent()).isEqualTo(1);
    }

    @Test
    void retriesStopAtTheLastAttemptAndTheBatchCountsAsFailedWithOneWarning() throws Exception {
        Scripted receiver = new Scripted(failures(10));
        CallbackQueue queue = queue(receiver, 10, 3);

        queue.deliver(List.of(Records.served("a"), Records.failed("b")));

        assertThat(receiver.posts).hasSize(3);
        assertThat(waits).hasSize(2);
        assertThat(queue.counters().failed()).isEqualTo(2);
        assertThat(queue.counters().sent()).isZero();
        assertThat(warnings("callback.delivery_failed")).singleElement().asString()
                .contains("records=2").contains("attempts=3").contains("answered 500");
    }

    @Test
    void aBatchTheReceiverRefusedForWhatItIsIsNotPostedAgain() throws Exception {
        Scripted receiver = new Scripted(SendResult.ofStatus(400, Optional.empty()));
        CallbackQueue queue = queue(receiver, 10, 5);

        queue.deliver(List.of(Records.served("a")));

        assertThat(receiver.posts).hasSize(1);
        assertThat(waits).isEmpty();
        assertThat(queue.counters().failed()).isEqualTo(1);
        assertThat(warnings("callback.delivery_failed")).singleElement().asString().contains("answered 400 (not retried)");
    }

    @Test
    void statusesAreReadAsTakenRetriedOrRefused() {
        for (int status : new int[] {200, 201, 204, 207}) {
            assertThat(SendResult.ofStatus(status, Optional.empty())).as("%d", status).isInstanceOf(SendResult.Delivered.class);
        }
        for (int status : new int[] {408, 429, 500, 502, 503, 504}) {
            assertThat(SendResult.ofStatus(status, Optional.empty())).as("%d", status).isInstanceOf(SendResult.Failed.class);
        }
        for (int status : new int[] {400, 401, 403, 404, 413, 422}) {
            assertThat(SendResult.ofStatus(status, Optional.empty())).as("%d", status).isInstanceOf(SendResult.Refused.class);
        }
    }

    @Test
    void closingPostsWhatIsQueuedAndTakesNoMore() {
        Scripted receiver = new Scripted();
        CallbackQueue queue = new CallbackQueue("langfuse", receiver,
                new CallbackQueue.Limits(10, 2, Duration.ofSeconds(30), 5, Duration.ofSeconds(5)),
                new Pacing(TimeSource.system(), new Random(SEED), BACKOFF), new CallbackCounters()).start(JOBS);
        for (int i = 0; i < 3; i++) {
            queue.offer(Records.served("c" + i));
        }

        queue.close();

        assertThat(receiver.posts.stream().mapToInt(List::size).sum()).isEqualTo(3);
        assertThat(queue.counters().sent()).isEqualTo(3);
        queue.offer(Records.served("late"));
        assertThat(queue.counters().dropped()).isEqualTo(1);
    }

    @Test
    void whatCannotBePostedBeforeTheShutdownDeadlineCountsAsFailed() {
        Scripted receiver = new Scripted(failures(100));
        CallbackQueue queue = new CallbackQueue("generic_api", receiver,
                new CallbackQueue.Limits(10, 10, Duration.ZERO, 5, Duration.ofMillis(300)),
                new Pacing(TimeSource.system(), new Random(SEED),
                        new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(8), Duration.ofSeconds(60))), new CallbackCounters());
        queue.offer(Records.served("a"));
        queue.offer(Records.served("b"));
        queue.start(JOBS);

        long started = System.nanoTime();
        queue.close();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
        assertThat(queue.counters().failed()).isEqualTo(2);
        assertThat(queue.counters().sent()).isZero();
    }

    private static SendResult[] failures(int count) {
        SendResult[] failures = new SendResult[count];
        java.util.Arrays.fill(failures, SendResult.ofStatus(500, Optional.empty()));
        return failures;
    }

    @Test
    void onInjectedTimeABatchIsPostedWhenItsLingerIsOverTheSenderOutlivesAFailedPostAndCloseEndsIt() throws Exception {
        FakeTime time = new FakeTime();
        JobRestarts restarts = new JobRestarts();
        Duration linger = Duration.ofSeconds(1);
        List<List<String>> posts = new CopyOnWriteArrayList<>();
        BatchSender failingOnce = batch -> {
            posts.add(batch.stream().map(CallRecord::callId).toList());
            if (posts.size() == 1) {
                throw TestSupervision.outOfMemory();
            }
            return SendResult.DELIVERED;
        };
        CallbackQueue queue = new CallbackQueue("generic_api", failingOnce,
                new CallbackQueue.Limits(10, 10, linger, 3, Duration.ofSeconds(5)),
                new Pacing(time.source(), new Random(SEED), BACKOFF), new CallbackCounters());
        queue.offer(Records.served("lost"));
        queue.start(time.scheduler(restarts));
        try {
            time.awaitWaiting(1); // the batch lingers
            time.advance(linger.minusNanos(1));
            time.awaitWaiting(1);
            assertThat(posts).as("a nanosecond before the linger is over").isEmpty();

            time.advance(Duration.ofNanos(1));
            time.awaitWaiting(1); // the restart's wait, after the post that failed
            assertThat(posts).containsExactly(List.of("lost"));
            assertThat(queue.counters().failed()).isEqualTo(1);
            assertThat(restarts.of("callback-generic_api")).isEqualTo(1);

            queue.offer(Records.served("after"));
            time.advance(RestartBackoff.DEFAULT.first());
            time.awaitWaiting(1); // restarted, the next batch lingers
            assertThat(posts).hasSize(1);
            time.advance(linger);
            time.awaitWaiting(1); // posted, the sender waits for records again
            assertThat(posts).containsExactly(List.of("lost"), List.of("after"));
            assertThat(queue.counters().sent()).isEqualTo(1);
        } finally {
            queue.close();
        }
        assertThat(queue.sender().isAlive()).as("the sender's thread, after close").isFalse();
    }
}
