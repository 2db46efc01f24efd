package dev.sluice.call;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * Watches a stream's whole events for the sign that its upstream finished the answer: a
 * {@code data: [DONE]} event, or a {@code finish_reason} that is not {@code null}. A body
 * that ends cleanly without either (a close-delimited body cut short looks exactly like a
 * complete one) is an answer broken off, not a complete one.
 *
 * <p>The check is a byte scan of what passes, nothing is parsed; once the mark is seen the
 * scan stops. One per stream; used on its event loop.
 */
final class StreamEndMark {
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FINISH = "\"finish_reason\"".getBytes(StandardCharsets.US_ASCII);

    private boolean seen;

    /** Looks at whole events (or an unfinished one, at the stream's end). */
    void saw(Buffer events) {
        if (!seen && events.length() > 0) {
            seen = in(events);
        }
    }

    /** Whether the upstream said its answer was over. */
    boolean seen() {
        return seen;
    }

    /** Whether {@code events} holds {@code [DONE]} or a {@code finish_reason} with a value. */
    static boolean in(Buffer events) {
        if (indexOf(events, DONE, 0) >= 0) {
            return true;
        }
        int at = indexOf(events, FINISH, 0);
        while (at >= 0) {
            int i = at + FINISH.length;
            i = skipSpace(events, i);
            if (i < events.length() && events.getByte(i) == ':') {
                i = skipSpace(events, i + 1);
                if (i < events.length() && events.getByte(i) != 'n') {
                    return true; // a string (or anything but null)
                }
            }
            at = indexOf(events, FINISH, at + 1);
        }
        return false;
    }

    private static int skipSpace(Buffer b, int from) {
        int i = from;
        while (i < b.length() && (b.getByte(i) == ' ' || b.getByte(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static int indexOf(Buffer haystack, byte[] needle, int from) {
        int last = haystack.length() - needle.length;
        outer:
        for (int i = from; i <= last; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack.getByte(i + j) != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
