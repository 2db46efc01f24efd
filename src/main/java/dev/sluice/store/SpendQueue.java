package dev.sluice.store;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The rows callers hand a {@link SpendWriter}, in memory and bounded, on their way to its
 * thread; and the count of rows that thread has settled (posted, or kept on disk), which a
 * flush waits on.
 *
 * <p>One short lock guards the rows and both counts, so a row's place in the queue and its
 * number in the count of accepted rows agree: rows are settled oldest first, so once the
 * settled count reaches the accepted count a flush read, every row accepted before the
 * flush is settled. Callers hold the lock only to add one row, never while anything waits
 * on the disk or the network.
 */
final class SpendQueue {
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a batch is full, a flush hurries the writer, or the queue closes. */
    private final Condition writerWanted = lock.newCondition();
    private final Condition settledMoved = lock.newCondition();
    private final ArrayDeque<SpendRow> rows = new ArrayDeque<>();
    private final int capacity;
    private final int batchRows;
    private long accepted;
    private long settled;
    /** A flush is waiting: hand the writer what is queued without waiting for a full batch. */
    private boolean hurry;
    private boolean closed;
    private volatile int size;

    SpendQueue(int capacity, int batchRows) {
        this.capacity = capacity;
        this.batchRows = batchRows;
    }

    /** Adds a row unless the queue is full or closed; never waits for more than the lock. */
    boolean offer(SpendRow row) {
        lock.lock();
        try {
            if (closed || rows.size() >= capacity) {
                return false;
            }
            rows.addLast(row);
            accepted++;
            size = rows.size();
            if (rows.size() == batchRows) {
                writerWanted.signal();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next batch for the writer, oldest rows first: waits up to {@code waitNanos} for a
     * full batch (less when a flush hurries it or the queue closes), then takes up to a
     * batch of what is there, maybe nothing.
     */
    List<SpendRow> take(long waitNanos) {
        lock.lock();
        try {
            long left = waitNanos;
            while (rows.size() < batchRows && !hurry && !closed && left > 0) {
                left = awaitNanos(writerWanted, left);
            }
            int count = Math.min(batchRows, rows.size());
            List<SpendRow> batch = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                batch.add(rows.pollFirst());
            }
            size = rows.size();
            if (rows.isEmpty()) {
                hurry = false;
            }
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code waitNanos}, less when a flush hurries the writer or the queue closes. */
    void pause(long waitNanos) {
        lock.lock();
        try {
            long left = waitNanos;
            while (!hurry && !closed && left > 0) {
                left = awaitNanos(writerWanted, left);
            }
            hurry = false;
        } finally {
            lock.unlock();
        }
    }

    /** The writer has posted or stored the oldest {@code count} rows it took. */
    void settled(int count) {
        if (count == 0) {
            return;
        }
        lock.lock();
        try {
            settled += count;
            settledMoved.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hurries the writer, then waits until every row accepted before this call is settled.
     *
     * @return false when {@code timeout} passed first
     */
    boolean awaitSettled(Duration timeout) throws InterruptedException {
        lock.lock();
        try {
            long target = accepted;
            if (settled >= target) {
                return true;
            }
            hurry = true;
            writerWanted.signal();
            long left = timeout.toNanos();
            while (settled < target) {
                if (left <= 0) {
                    return false;
                }
                left = settledMoved.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses rows from now on and wakes the writer to settle what is left. */
    void close() {
        lock.lock();
        try {
            closed = true;
            writerWanted.signal();
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Rows waiting; read without the lock. */
    int size() {
        return size;
    }

    /**
     * The writer's thread is never interrupted on purpose; an interrupt only ends this wait
     * early, as a wake-up would, and the caller's loop decides what to do next.
     */
    private static long awaitNanos(Condition condition, long nanos) {
        try {
            return condition.awaitNanos(nanos);
        } catch (InterruptedException e) {
            return 0;
        }
    }
}
