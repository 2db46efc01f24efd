package dev.sluice.vendors.stream;

import dev.sluice.wire.SseEventSplitter;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-sent events as the W3C's EventSource rules read them: lines up to a blank line form
 * an event, {@code event:} names it, {@code data:} lines are joined with newlines, comments
 * ({@code :}) and other fields are skipped, an event with no data is dropped.
 */
public final class SseFraming implements Framing {
    private final SseEventSplitter splitter = new SseEventSplitter();

    @Override
    public List<Frame> feed(Buffer chunk) {
        return frames(splitter.feed(chunk));
    }

    @Override
    public List<Frame> end() {
        return frames(splitter.remainder());
    }

    static List<Frame> frames(Buffer events) {
        List<Frame> frames = new ArrayList<>();
        if (events.length() == 0) {
            return frames;
        }
        String type = null;
        StringBuilder data = null;
        for (String line : events.toString(StandardCharsets.UTF_8).split("\r\n|\r|\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    frames.add(new Frame(type, data.toString().getBytes(StandardCharsets.UTF_8)));
                }
                type = null;
                data = null;
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "event" -> type = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> { } // a comment, id: or retry: changes nothing here
            }
        }
        if (data != null) {
            frames.add(new Frame(type, data.toString().getBytes(StandardCharsets.UTF_8)));
        }
        return frames;
    }
}
