package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.Usage;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Watches a stream's OpenAI events on their way to the caller, for the logging callbacks: when
 * its first event came, the text it assembles to (up to {@link CallRecording#KEPT_CHARS}),
 * its finish reason and the model it names. Passes every event through unchanged. Exists only
 * when a callback is configured; one per stream attempt, on its event loop.
 */
final class StreamWatch implements StreamTranslator {
    private final StreamTranslator inner;
    private final LongSupplier nanoTime;
    private final boolean keepsText;
    private final StringBuilder text = new StringBuilder();
    private long firstEventNanos;
    private boolean truncated;
    private String finishReason;
    private boolean done;
    private String model;

    /** @param keepsText whether the answer's text is kept: only when message logging is on */
    StreamWatch(StreamTranslator inner, LongSupplier nanoTime, boolean keepsText) {
        this.inner = inner;
        this.nanoTime = nanoTime;
        this.keepsText = keepsText;
    }

    @Override
    public Buffer feed(Buffer chunk) {
        return saw(inner.feed(chunk));
    }

    @Override
    public Buffer end() {
        return saw(inner.end());
    }

    @Override
    public Optional<Usage> usage() {
        return inner.usage();
    }

    private Buffer saw(Buffer events) {
        if (events.length() == 0) {
            return events;
        }
        if (firstEventNanos == 0) {
            firstEventNanos = nanoTime.getAsLong();
        }
        for (String line : events.toString(StandardCharsets.UTF_8).split("\r?\n")) {
            if (line.startsWith("data:")) {
                String data = line.substring(5).strip();
                done |= data.equals("[DONE]");
                event(data);
            }
        }
        return events;
    }

    private void event(String data) {
        if (!data.startsWith("{")) {
            return;
        }
        JsonNode event;
        try {
            event = Json.parse(data.getBytes(StandardCharsets.UTF_8));
        } catch (IOException notJson) {
            return;
        }
        if (event.path("model").isTextual()) {
            model = event.get("model").textValue();
        }
        JsonNode choice = event.path("choices").path(0);
        if (choice.path("finish_reason").isTextual()) {
            finishReason = choice.get("finish_reason").textValue();
        }
        JsonNode content = choice.path("delta").path("content");
        if (keepsText && content.isTextual() && !truncated) {
            int room = CallRecording.KEPT_CHARS - text.length();
            String delta = content.textValue();
            text.append(delta, 0, Math.min(room, delta.length()));
            truncated = delta.length() > room;
        }
    }

    /** The ticker's reading when the first event came; 0 when none has. */
    long firstEventNanos() {
        return firstEventNanos;
    }

    /** Whether the stream said its answer was over (a finish reason or {@code [DONE]}): one without was cut. */
    boolean finished() {
        return finishReason != null || done;
    }

    String finishReason() {
        return finishReason;
    }

    String model() {
        return model;
    }

    String text() {
        return truncated ? text + CallRecording.TRUNCATED : text.toString();
    }
}
