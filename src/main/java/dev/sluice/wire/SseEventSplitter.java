package dev.sluice.wire;

import io.vertx.core.buffer.Buffer;

/**
 * Cuts a server-sent-events byte stream at event boundaries (a blank line), so that only
 * whole events are relayed. If the stream breaks off, what the client has is a sequence of
 * whole events, and an error event appended after them parses cleanly.
 */
public final class SseEventSplitter {
    private Buffer pending = Buffer.buffer();
    /** Bytes of {@link #pending} already known to hold no boundary, so each byte is scanned once. */
    private int scanned;

    /**
     * Adds {@code chunk} and returns every whole event now available, in order (possibly
     * several, possibly none: an empty buffer). A partial event is kept for the next call.
     */
    public Buffer feed(Buffer chunk) {
        if (pending.length() == 0 && endsWithBoundary(chunk)) {
            return chunk; // the common case: the upstream flushed whole events
        }
        pending.appendBuffer(chunk);
        int end = lastBoundaryEnd(pending, Math.max(0, scanned - 3));
        if (end < 0) {
            scanned = pending.length();
            return Buffer.buffer();
        }
        Buffer complete = pending.getBuffer(0, end);
        pending = end == pending.length() ? Buffer.buffer() : pending.getBuffer(end, pending.length());
        scanned = 0;
        return complete;
    }

    /** The bytes of an unfinished event, relayed when the upstream ends the stream cleanly. */
    public Buffer remainder() {
        Buffer rest = pending;
        pending = Buffer.buffer();
        scanned = 0;
        return rest;
    }

    private static boolean endsWithBoundary(Buffer b) {
        int n = b.length();
        return n >= 2 && b.getByte(n - 1) == '\n' && (b.getByte(n - 2) == '\n'
                || (n >= 4 && b.getByte(n - 2) == '\r' && b.getByte(n - 3) == '\n' && b.getByte(n - 4) == '\r'));
    }

    /**
     * Index just past the last blank-line boundary ({@code \n\n} or {@code \r\n\r\n}) that
     * ends at or after {@code from}, or -1.
     */
    private static int lastBoundaryEnd(Buffer b, int from) {
        for (int i = b.length() - 1; i >= Math.max(1, from); i--) {
            if (b.getByte(i) != '\n') {
                continue;
            }
            if (b.getByte(i - 1) == '\n') {
                return i + 1;
            }
            if (i >= 3 && b.getByte(i - 1) == '\r' && b.getByte(i - 2) == '\n' && b.getByte(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }
}
