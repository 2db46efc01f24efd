package dev.sluice.time;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A wait on the injected time that another thread can end early: a background worker waits
 * for its next round or for work to arrive, whichever comes first, and a caller waits for the
 * worker to have done something, within a timeout. Every wait goes through the
 * {@link Supervision.Sleeper} it was given, so on fake time a test sees the worker waiting and
 * moves time past it, without sleeping.
 *
 * <h2>Design notes</h2>
 * <b>Woken by an interrupt, only while waiting.</b> A waiter cannot be told to look again
 * without knowing the time it waits on, so {@link #wake} interrupts the threads that are in a
 * wait here, and only them: a thread forcing a file or posting a batch is never interrupted
 * (an interrupted file channel closes). The interrupt is cleared before the wait returns, and
 * one a wake did not send is passed on as the {@link InterruptedException} it is.
 *
 * <p><b>No wake is lost.</b> A waiter registers and checks its condition under one lock, and
 * {@link #wake} looks for waiters after the change it announces: either the waiter sees the
 * change, or the wake sees the waiter. The condition runs under that lock, so it reads only
 * volatile or thread-safe state and takes no lock a waker may hold while it wakes.
 */
public final class Wakeup {
    private final Supervision.Sleeper sleeper;
    private final LongSupplier ticker;
    private final Object lock = new Object();
    /** Each thread in a wait, and whether a wake has interrupted it; guarded by {@link #lock}. */
    private final Map<Thread, Boolean> waiting = new HashMap<>();
    /** How many threads wait: a wake with none to wake takes no lock. */
    private volatile int waiters;

    /** Waits spent with {@code sleeper}, measured against {@code ticker}. */
    public Wakeup(Supervision.Sleeper sleeper, LongSupplier ticker) {
        this.sleeper = sleeper;
        this.ticker = ticker;
    }

    /** Waits spent on {@code time}. */
    public static Wakeup on(TimeSource time) {
        return new Wakeup(time::sleep, time.ticker());
    }

    /**
     * Waits until {@code done} says yes or {@code timeout} has passed on the ticker, looking at
     * {@code done} first and after each wake.
     *
     * @return whether {@code done} said yes
     * @throws InterruptedException when the thread was interrupted other than by {@link #wake}
     */
    public boolean await(BooleanSupplier done, Duration timeout) throws InterruptedException {
        long deadline = ticker.getAsLong() + timeout.toNanos();
        Thread self = Thread.currentThread();
        while (true) {
            long left;
            synchronized (lock) {
                enter(self);
                if (done.getAsBoolean()) {
                    leave(self);
                    return true;
                }
                left = deadline - ticker.getAsLong();
                if (left <= 0) {
                    leave(self);
                    return false;
                }
            }
            try {
                sleeper.sleep(Duration.ofNanos(left));
            } catch (InterruptedException e) {
                synchronized (lock) {
                    if (!leave(self)) {
                        throw e;
                    }
                }
                continue;
            }
            synchronized (lock) {
                leave(self);
            }
        }
    }

    /** Ends every wait in progress, each to look at its condition again. */
    public void wake() {
        if (waiters == 0) {
            return;
        }
        synchronized (lock) {
            for (Map.Entry<Thread, Boolean> waiter : waiting.entrySet()) {
                if (!waiter.getValue()) {
                    waiter.setValue(true);
                    waiter.getKey().interrupt();
                }
            }
        }
    }

    private void enter(Thread self) {
        waiting.put(self, false);
        waiters = waiting.size();
    }

    /** Ends {@code self}'s wait; true when a wake interrupted it, that interrupt then cleared. */
    private boolean leave(Thread self) {
        boolean woken = Boolean.TRUE.equals(waiting.remove(self));
        waiters = waiting.size();
        if (woken) {
            Thread.interrupted();
        }
        return woken;
    }
}
