package dev.sluice.vendors.mock;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides the mode of each model call. With {@code times} N above zero, the mode applies
 * to the first N calls after it was set (at start, by {@link #set}, or by {@link #restart})
 * and later calls are answered {@code ok}: that scripts "500 then success".
 */
public final class MockModeSchedule {

    private final int times;
    private final AtomicInteger callsInMode = new AtomicInteger();
    private volatile MockMode mode;

    MockModeSchedule(MockMode mode, int times) {
        this.mode = mode;
        this.times = times;
    }

    /** The mode for the call that just arrived; counts the call. */
    public MockMode next() {
        MockMode current = mode;
        if (times == 0 || callsInMode.incrementAndGet() <= times) {
            return current;
        }
        return MockMode.OK;
    }

    /** The mode set most recently, whether or not its {@code times} are used up. */
    public MockMode current() {
        return mode;
    }

    void set(MockMode mode) {
        callsInMode.set(0);
        this.mode = mode;
    }

    /** Gives the current mode its {@code times} again. */
    void restart() {
        callsInMode.set(0);
    }
}
