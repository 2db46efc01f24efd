package dev.sluice.vendors.stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.Usage;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.openai.wire.OpenAiChatChunkEncoder;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A vendor's stream as OpenAI chat-completion chunks: frames are cut by the vendor's
 * {@link Framing}, read by its {@link EventDecoder}, and each frame's events written as one
 * chunk. The usage the vendor reports is kept for the call's cost; it reaches the caller as
 * OpenAI's last chunk ({@code choices: []}) only when the caller asked with
 * {@code stream_options.include_usage}. {@code data: [DONE]} follows only once the vendor
 * said why it stopped.
 */
public final class TranslatedStream implements StreamTranslator {
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private final Framing framing;
    private final EventDecoder decoder;
    private final boolean includeUsage;
    private final OpenAiChatChunkEncoder encoder;
    private boolean started;
    private boolean finished;
    private Usage usage;

    /**
     * @param includeUsage whether the caller asked for the usage chunk
     * @param created      the chunks' {@code created}, in Unix seconds
     */
    public TranslatedStream(Framing framing, EventDecoder decoder, boolean includeUsage, long created) {
        this.framing = framing;
        this.decoder = decoder;
        this.includeUsage = includeUsage;
        this.encoder = OpenAiChat.chunkEncoder(created);
    }

    @Override
    public Buffer feed(Buffer chunk) {
        return write(framing.feed(chunk), false);
    }

    @Override
    public Buffer end() {
        return write(framing.end(), true);
    }

    @Override
    public Optional<Usage> usage() {
        return Optional.ofNullable(usage);
    }

    private Buffer write(List<Frame> frames, boolean last) {
        Buffer out = Buffer.buffer();
        for (Frame frame : frames) {
            List<StreamEvent> events = new ArrayList<>();
            for (StreamEvent event : decoder.decode(frame)) {
                switch (event) {
                    case StreamEvent.UsageReported reported -> usage = reported.usage();
                    case StreamEvent.Started s -> {
                        if (!started) {
                            started = true;
                            events.add(s);
                        }
                    }
                    case StreamEvent.Finished f -> {
                        if (!finished) {
                            finished = true;
                            events.add(f);
                        }
                    }
                    default -> events.add(event);
                }
            }
            if (!events.isEmpty() && started) {
                encoder.encode(events).forEach(c -> append(out, c));
            }
        }
        if (last && finished) {
            if (includeUsage && usage != null) {
                encoder.encode(List.of(new StreamEvent.UsageReported(usage))).forEach(c -> append(out, c));
            }
            out.appendBytes(DONE);
        }
        return out;
    }

    private static void append(Buffer out, ObjectNode chunk) {
        out.appendBytes(DATA).appendBytes(Json.bytes(chunk)).appendBytes(END);
    }
}
