package dev.sluice.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.model.AnswerText;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What a relayed stream used, for its cost: the {@code usage} of its usage event when the
 * upstream sends one (OpenAI does with {@code stream_options.include_usage}), else its
 * answer's tokens counted from the events' text.
 *
 * <p>Events are looked at as they pass: only one that holds {@code "usage"} is parsed, and
 * the events' raw bytes are kept, up to {@link #KEPT_BYTES}, until a usage event is found, to
 * be counted at the end. Past that the rest is estimated at four bytes a token, which keeps
 * the memory of a very long stream bounded. One per stream; used on its event loop.
 */
final class StreamTally {
    static final int KEPT_BYTES = 256 * 1024;
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);

    private final boolean counts;
    private TokenUsage reported;
    /** The {@code model} of the usage event, when it named one: it may price a deployment that has no price. */
    private String answeredModel;
    private Buffer kept;
    private long unkeptBytes;

    /**
     * @param counts whether the stream's tokens matter (for its spend row or its price); when
     *               they do not, events are not looked at and the stream used nothing known
     */
    StreamTally(boolean counts) {
        this.counts = counts;
        this.kept = counts ? Buffer.buffer() : null;
    }

    /**
     * The vendor reported the stream's tokens apart from its events (a translated stream
     * keeps them whether or not the caller asked for a usage chunk): they are the stream's.
     */
    void reported(dev.sluice.model.Usage usage) {
        if (counts) {
            reported = new TokenUsage(usage.promptTokens(), usage.completionTokens(), usage.cachedPromptTokens(),
                    usage.cacheCreationTokens());
            kept = null;
        }
    }

    /** Looks at whole events as they go to the caller. */
    void saw(Buffer events) {
        if (!counts || (reported != null && kept == null)) {
            return; // nothing depends on this stream's tokens, or they are known: not even a usage event is read
        }
        if (contains(events, USAGE)) {
            usageIn(events.toString(StandardCharsets.UTF_8)).ifPresent(usage -> reported = usage);
        }
        if (reported != null) {
            kept = null;
            return;
        }
        int room = KEPT_BYTES - kept.length();
        if (events.length() <= room) {
            kept.appendBuffer(events);
        } else {
            if (room > 0) {
                kept.appendBuffer(events, 0, room);
            }
            unkeptBytes += events.length() - Math.max(0, room);
        }
    }

    /**
     * The stream's usage: as reported, else the prompt's tokens (asked for only then) and the
     * answer's counted with {@code encoding}.
     */
    TokenUsage usage(java.util.function.LongSupplier promptTokens, TokenEncoding encoding) {
        if (!counts) {
            return TokenUsage.NONE;
        }
        if (reported != null) {
            return reported;
        }
        long completion = CallTokens.textTokens(AnswerText.ofEvents(kept.toString(StandardCharsets.UTF_8)), encoding)
                + unkeptBytes / 4;
        return new TokenUsage(promptTokens.getAsLong(), completion);
    }

    /** The model the stream's usage event said answered; null when it named none (or none was read). */
    String answeredModel() {
        return answeredModel;
    }

    /** The usage object of the last event in {@code events} that has one with counts, noting the model it names. */
    private Optional<TokenUsage> usageIn(String events) {
        Optional<TokenUsage> found = Optional.empty();
        for (String line : events.split("\r?\n")) {
            if (!line.startsWith("data:") || !line.contains("\"usage\"")) {
                continue;
            }
            try {
                JsonNode event = Json.parse(line.substring(5).strip().getBytes(StandardCharsets.UTF_8));
                Optional<TokenUsage> usage = TokenUsage.of(event.get("usage"));
                if (usage.isPresent()) {
                    found = usage;
                    JsonNode model = event.get("model");
                    answeredModel = model != null && model.isTextual() ? model.textValue() : answeredModel;
                }
            } catch (IOException e) {
                // Not JSON: no usage in it.
            }
        }
        return found;
    }

    private static boolean contains(Buffer haystack, byte[] needle) {
        int last = haystack.length() - needle.length;
        outer:
        for (int i = 0; i <= last; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack.getByte(i + j) != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
