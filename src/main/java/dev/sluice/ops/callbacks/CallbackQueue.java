package dev.sluice.ops.callbacks;

import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import dev.sluice.time.Wakeup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One callback's records on their way to its receiver: a bounded queue the call path offers
 * to without ever waiting, drained by one sender thread that posts them in batches.
 *
 * <h2>Design notes</h2>
 * <b>A call never waits for its callbacks.</b> {@link #offer} either queues the record or,
 * when the queue is full (the receiver is down or slower than the traffic), drops it: the drop
 * is counted, and warned about once per episode (the warning comes back only after the queue
 * has been emptied again), never once per record.
 *
 * <p><b>Retries are read off the result.</b> A batch the receiver could not take now
 * ({@link SendResult.Failed}: refused connection, timeout, 408, 429, 5xx) is posted again
 * after the {@link Pacing#backoff()} wait, up to {@link Limits#attempts()} posts; one it
 * refused for what it is (another 4xx) is not posted again. Either way a batch given up is
 * counted as failed and logged once. The same batch is posted again as it was, so a receiver
 * that deduplicates (Langfuse does, by event id) never counts it twice.
 *
 * <p><b>Shutdown flushes.</b> {@link #close} lets the sender post what is queued, without
 * lingering for fuller batches, until a short deadline; what is still unsent then is
 * counted as failed.
 *
 * <p><b>No failure ends the sender.</b> It runs as a job of the gateway's {@link Scheduler}:
 * anything a post throws, an {@code OutOfMemoryError} included, counts the batch in hand as
 * failed, and the sender starts again after a back-off to post the records queued behind it.
 *
 * <p><b>Every wait is on the injected time.</b> The sender waits for a first record, for a
 * batch to fill and before a retry on {@link Pacing#time()}; an offer or a close ends its wait
 * for records early ({@link Wakeup}), so a test drives it by moving fake time.
 */
final class CallbackQueue implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CallbackQueue.class);
    /** How long the sender waits for a first record before it takes the queue for emptied: an offer or close ends the wait sooner. */
    private static final Duration IDLE_POLL = Duration.ofMillis(200);

    /**
     * @param capacity  records held at most; one more is dropped
     * @param batchSize records posted together at most
     * @param linger    how long a batch waits for more records before it is posted
     * @param attempts  posts of one batch at most
     * @param flushBy   how long {@link #close} gives the sender to post what is queued
     */
    record Limits(int capacity, int batchSize, Duration linger, int attempts, Duration flushBy) {}

    private final String name;
    private final BatchSender sender;
    private final Limits limits;
    private final Pacing pacing;
    private final CallbackCounters counters;
    private final BlockingQueue<CallRecord> queue;
    /** Ends the sender's wait for records when one is offered, or at close. */
    private final Wakeup arrivals;
    private final AtomicBoolean warnedFull = new AtomicBoolean();
    private volatile Instant closingBy;
    private SupervisedLoop loop;

    CallbackQueue(String name, BatchSender sender, Limits limits, Pacing pacing, CallbackCounters counters) {
        this.name = name;
        this.sender = sender;
        this.limits = limits;
        this.pacing = pacing;
        this.counters = counters;
        this.queue = new ArrayBlockingQueue<>(limits.capacity());
        this.arrivals = Wakeup.on(pacing.time());
    }

    /** The sender's thread, once started: a close ends it. */
    Thread sender() {
        return loop.thread();
    }

    String name() {
        return name;
    }

    CallbackCounters counters() {
        return counters;
    }

    /** Queues a record for the sender, or counts it dropped when the queue is full; never waits. */
    void offer(CallRecord record) {
        if (closingBy == null && queue.offer(record)) {
            arrivals.wake();
            return;
        }
        counters.drop();
        if (warnedFull.compareAndSet(false, true)) {
            log.warn("callback.queue_full callback={} capacity={} reason=\"the receiver is down, slow or refusing; "
                    + "records are dropped and counted in sluice_callback_dropped_total until the queue empties\"",
                    name, limits.capacity());
        }
    }

    /** Starts the sender as the job {@code callback-<name>} of {@code jobs}, restarted after a failure as it says. */
    CallbackQueue start(Scheduler jobs) {
        loop = jobs.loop("callback-" + name, this::run);
        return this;
    }

    /** Posts batches until closed and emptied; throws what a post threw, the batch counted as failed. */
    private void run() throws InterruptedException {
        while (true) {
            List<CallRecord> batch = takeBatch();
            if (batch.isEmpty() && closingBy != null) {
                return;
            }
            if (!batch.isEmpty()) {
                try {
                    deliver(batch);
                } catch (RuntimeException | Error e) {
                    counters.failed(batch.size());
                    throw e;
                }
            }
        }
    }

    /** The next batch: the first record within {@link #IDLE_POLL}, and what follows it within the linger. */
    List<CallRecord> takeBatch() throws InterruptedException {
        arrivals.await(this::recordOrClosing, IDLE_POLL);
        CallRecord first = queue.poll();
        if (first == null) {
            warnedFull.set(false); // the queue has emptied: a new episode of drops is warned about again
            return List.of();
        }
        List<CallRecord> batch = new ArrayList<>(limits.batchSize());
        batch.add(first);
        long lingerEnds = pacing.time().nanos() + limits.linger().toNanos();
        while (true) {
            queue.drainTo(batch, limits.batchSize() - batch.size());
            long left = lingerEnds - pacing.time().nanos();
            if (batch.size() >= limits.batchSize() || closingBy != null || left <= 0) {
                return batch; // at shutdown a batch does not wait to fill up
            }
            arrivals.await(this::recordOrClosing, Duration.ofNanos(left));
        }
    }

    private boolean recordOrClosing() {
        return !queue.isEmpty() || closingBy != null;
    }

    /** Posts one batch until it is taken, refused, or out of attempts (or of the shutdown deadline). */
    void deliver(List<CallRecord> batch) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            SendResult result = sender.send(batch);
            switch (result) {
                case SendResult.Delivered delivered -> {
                    counters.sent(batch.size());
                    return;
                }
                case SendResult.Refused refused -> {
                    giveUp(batch, attempt, refused.reason() + " (not retried)");
                    return;
                }
                case SendResult.Failed failed -> {
                    if (attempt >= limits.attempts()) {
                        giveUp(batch, attempt, failed.reason());
                        return;
                    }
                    Duration wait = pacing.backoff().delay(attempt - 1, failed.retryAfter(), pacing.random());
                    if (pastShutdownDeadline(wait)) {
                        giveUp(batch, attempt, failed.reason() + " (the gateway is stopping)");
                        return;
                    }
                    pacing.time().sleep(wait);
                }
            }
        }
    }

    private boolean pastShutdownDeadline(Duration wait) {
        Instant by = closingBy;
        return by != null && pacing.clock().instant().plus(wait).isAfter(by);
    }

    private void giveUp(List<CallRecord> batch, int attempts, String reason) {
        counters.failed(batch.size());
        log.warn("callback.delivery_failed callback={} records={} attempts={} reason=\"{}\"", name, batch.size(), attempts, reason);
    }

    /**
     * Stops taking records and gives the sender until {@link Limits#flushBy()} to post what
     * is queued; anything still unsent then is counted as failed.
     */
    @Override
    public void close() {
        closingBy = pacing.clock().instant().plus(limits.flushBy());
        arrivals.wake();
        if (loop == null) {
            return;
        }
        try {
            if (!loop.thread().join(limits.flushBy().plusSeconds(1))) {
                loop.interrupt();
                loop.thread().join(Duration.ofSeconds(1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int unsent = queue.size();
        if (unsent > 0) {
            queue.clear();
            counters.failed(unsent);
            log.warn("callback.unsent_at_shutdown callback={} records={}", name, unsent);
        }
    }
}
