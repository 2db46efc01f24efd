package dev.sluice.state.sync;

import dev.sluice.store.StoreException;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * One part of the store kept in step with this replica: a round reads it and serves what it
 * holds, once at {@link #start} and then every interval as a job of a {@link Scheduler}, until closed.
 *
 * <p>A round holds a lock that changes made through the API hold too ({@link #locked}), so
 * neither interleaves with the other: a round that read the store before a write would
 * otherwise put back what the store held then. A lock rather than {@code synchronized}: both
 * read or write the database while holding it, and a virtual thread blocked inside a monitor
 * keeps its carrier thread on Java 21.
 *
 * <p>While the store cannot be read what is served stays as it was. The first failed read is
 * logged ({@code <event>.store_unreadable}), and so is the first read that succeeds after it
 * ({@code <event>.store_readable}); the rounds between say nothing.
 *
 * <p>Anything else a round throws (a fault in what was read, an {@code OutOfMemoryError})
 * does not end the rounds: the scheduler supervises them, logs it and starts them again after
 * a back-off.
 *
 * @param <T> what one read of the store gives
 */
final class StorePoller<T> implements AutoCloseable {

    /**
     * How a poller speaks of itself.
     *
     * @param log    the poller owner's logger
     * @param event  the prefix of its log events, e.g. {@code models}
     * @param served what it serves, in the log's sentences, e.g. {@code added models}
     * @param thread the name of its thread: {@code sluice-} and its job's name
     */
    record Subject(Logger log, String event, String served, String thread) {}

    private final Subject subject;
    private final Duration interval;
    private final Supplier<T> read;
    private final Consumer<T> serve;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile SupervisedLoop loop;
    private boolean unreadableLogged;
    private volatile boolean readable = true;

    /**
     * @param read  reads the store; a {@link StoreException} means it cannot be read now
     * @param serve serves what a read gave; runs under the lock
     */
    StorePoller(Subject subject, Duration interval, Supplier<T> read, Consumer<T> serve) {
        this.subject = subject;
        this.interval = interval;
        this.read = read;
        this.serve = serve;
    }

    /** Runs a round now (serving what the store holds from the first request), then every interval on {@code scheduler}. */
    void start(Scheduler scheduler) {
        runRound();
        loop = scheduler.every(job(), interval, this::runRound);
    }

    /**
     * Runs the first round in the background once {@code ready} completes (the store's schema
     * is applied), then one every interval: for a store that was away when the gateway started,
     * which must not hold up the start.
     */
    void startAfter(Future<?> ready, Scheduler scheduler) {
        loop = scheduler.loop(job(), () -> {
            try {
                ready.get();
            } catch (ExecutionException e) {
                // the rounds below find out whether the store can be read
            }
            runRound();
            while (!Thread.currentThread().isInterrupted()) {
                scheduler.sleep(interval);
                runRound();
            }
        });
    }

    /** The rounds' job: the thread's name without {@code sluice-}. */
    private String job() {
        return subject.thread().replaceFirst("^sluice-", "");
    }

    /** Runs {@code work} under the rounds' lock, so no round interleaves with it. */
    <R> R locked(Supplier<R> work) {
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the last read of the store succeeded. */
    boolean readable() {
        return readable;
    }

    /** One round: serve what the store holds. Never throws a {@link StoreException}. */
    void runRound() {
        locked(() -> {
            T held;
            try {
                held = read.get();
            } catch (StoreException e) {
                unreadable(e);
                return null;
            }
            readableAgain();
            serve.accept(held);
            return null;
        });
    }

    private void unreadable(StoreException e) {
        readable = false;
        if (!unreadableLogged) {
            subject.log().warn("{}.store_unreadable reason={}; serving the {} as they were", subject.event(), e.getMessage(),
                    subject.served());
            unreadableLogged = true;
        }
    }

    private void readableAgain() {
        readable = true;
        if (unreadableLogged) {
            subject.log().info("{}.store_readable; {} follow the store again", subject.event(), subject.served());
            unreadableLogged = false;
        }
    }

    @Override
    public void close() {
        SupervisedLoop running = loop;
        if (running != null) {
            running.interrupt();
        }
    }
}
