package dev.sluice.wire;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads and writes whole server-sent events. */
public final class SseEvents {
    private SseEvents() {}

    /**
     * One event: its {@code event:} name (null when it has none) and its data lines joined with
     * newlines.
     */
    public record SseEvent(String name, String data) {}

    /**
     * The events in {@code whole}, which holds whole events only, in order. Comments and events
     * without data are left out.
     */
    public static List<SseEvent> read(Buffer whole) {
        List<SseEvent> events = new ArrayList<>();
        String name = null;
        StringBuilder data = null;
        for (String line : whole.toString(StandardCharsets.UTF_8).split("\r\n|\r|\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new SseEvent(name, data.toString()));
                }
                name = null;
                data = null;
            } else if (line.startsWith("data:")) {
                String value = line.startsWith("data: ") ? line.substring(6) : line.substring(5);
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            } else if (line.startsWith("event:")) {
                name = (line.startsWith("event: ") ? line.substring(7) : line.substring(6)).trim();
            }
        }
        if (data != null) {
            events.add(new SseEvent(name, data.toString()));
        }
        return events;
    }

    /** One named event with its data, ending in the blank line that closes it. */
    public static Buffer write(Buffer to, String name, Buffer data) {
        return to.appendString("event: ").appendString(name).appendString("\ndata: ").appendBuffer(data).appendString("\n\n");
    }
}
