package dev.sluice.mock;

import java.util.function.IntSupplier;

/**
 * Waits for a counter that the mock updates on its event loop, after the client's part is
 * already done (a hang-up is seen by the server a moment after the client closes).
 */
final class Eventually {

    private static final long TIMEOUT_MILLIS = 5_000;

    private Eventually() {}

    static void equal(String what, IntSupplier actual, int expected) {
        long deadline = System.nanoTime() + TIMEOUT_MILLIS * 1_000_000;
        int last = actual.getAsInt();
        while (last != expected && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, interrupted);
            }
            last = actual.getAsInt();
        }
        if (last != expected) {
            throw new AssertionError(what + ": expected " + expected + " within " + TIMEOUT_MILLIS + "ms, was " + last);
        }
    }
}
