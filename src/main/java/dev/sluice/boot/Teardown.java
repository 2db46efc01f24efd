package dev.sluice.boot;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a gateway must close when it stops, closed in the reverse of the order it was opened
 * in: whatever uses a part is closed before the part. Also what a start that fails half-way
 * closes, so nothing it opened is left running.
 */
final class Teardown implements AutoCloseable {
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Registers a part just opened; returns it. */
    <T extends AutoCloseable> T add(T part) {
        opened.push(part);
        return part;
    }

    /** Closes every part, the last opened first; a part that fails to close does not keep the rest open. */
    @Override
    public void close() {
        RuntimeException first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = new IllegalStateException("Sluice did not stop cleanly: " + e.getMessage(), e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
