package dev.sluice.call;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;

/**
 * Watches a relayed stream's events for a sign that the answer is complete: the
 * {@code data: [DONE]} line, or a choice's {@code finish_reason} with a value. A stream whose
 * upstream body ends without either was cut short, whatever the transport says (a
 * close-delimited body or a clean chunked end), and is not relayed as if it were whole.
 * Only whole events are looked at, so a marker is never split between two calls.
 */
final class StreamFinish {
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FINISH_REASON = "\"finish_reason\"".getBytes(StandardCharsets.US_ASCII);

    private boolean seen;

    /** Looks at whole events as they go to the caller. */
    void saw(Buffer events) {
        if (!seen && (indexOf(events, DONE, 0) >= 0 || hasFinishReason(events))) {
            seen = true;
        }
    }

    /** Whether the stream said it was complete. */
    boolean seen() {
        return seen;
    }

    /** A {@code "finish_reason"} whose value is a string, not {@code null}. */
    private static boolean hasFinishReason(Buffer events) {
        int from = 0;
        while (true) {
            int at = indexOf(events, FINISH_REASON, from);
            if (at < 0) {
                return false;
            }
            int i = skipBlanks(events, at + FINISH_REASON.length);
            if (i < events.length() && events.getByte(i) == ':') {
                i = skipBlanks(events, i + 1);
                if (i < events.length() && events.getByte(i) == '"') {
                    return true;
                }
            }
            from = at + FINISH_REASON.length;
        }
    }

    private static int skipBlanks(Buffer b, int i) {
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
