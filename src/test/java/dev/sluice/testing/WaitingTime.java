package dev.sluice.testing;

import dev.sluice.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Time for a test of what waits: a {@link FakeClock} and a ticker that move together only when
 * the test {@link #advance}s them, and a waiter that ends every wait the move carries past.
 * A test waits with {@link #awaitWaiting} until the threads it drives are waiting, so a move
 * is never made before a job has started its wait; nothing here sleeps.
 */
public final class WaitingTime {
    private final FakeClock clock = new FakeClock();
    private final Object moved = new Object();
    /** Guarded by {@link #moved}. */
    private long nanos;
    /** Where each waiting thread's wait ends; guarded by {@link #moved}. */
    private final List<Long> waits = new ArrayList<>();

    /** The source jobs read and wait on. */
    public TimeSource source() {
        return new TimeSource(clock, this::nanos, this::awaitTicker);
    }

    public FakeClock clock() {
        return clock;
    }

    public long nanos() {
        synchronized (moved) {
            return nanos;
        }
    }

    /** Moves the clock and the ticker forward by {@code step}, and wakes every wait to look again. */
    public void advance(Duration step) {
        synchronized (moved) {
            nanos += step.toNanos();
            clock.advance(step);
            moved.notifyAll();
        }
    }

    /**
     * Blocks until at least {@code threads} threads wait for a time still to come (at most ten
     * seconds): a wait the last move ended does not count, its thread has yet to wake.
     */
    public void awaitWaiting(int threads) throws InterruptedException {
        synchronized (moved) {
            long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (waits.stream().filter(until -> until > nanos).count() < threads) {
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("threads waiting for a time to come: " + waits + " at " + nanos
                            + ", expected " + threads);
                }
                moved.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private void awaitTicker(long until) throws InterruptedException {
        synchronized (moved) {
            Long wait = until;
            waits.add(wait);
            moved.notifyAll();
            try {
                while (nanos < until) {
                    moved.wait();
                }
            } finally {
                waits.remove(wait);
            }
        }
    }
}
