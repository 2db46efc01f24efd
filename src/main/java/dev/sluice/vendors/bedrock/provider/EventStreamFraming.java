package dev.sluice.vendors.bedrock.provider;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.vendors.stream.Frame;
import dev.sluice.vendors.stream.Framing;
import dev.sluice.vendors.stream.StreamFailure;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;
import software.amazon.eventstream.MessageDecoder;

/**
 * AWS's {@code application/vnd.amazon.eventstream} framing, read by AWS's own decoder: each
 * message is a prelude (total and header lengths, and their CRC32), typed headers, a payload and
 * a CRC32 of the whole. A frame whose checksums do not match fails the stream; so does a body
 * that ends inside a frame. An event message becomes a {@link Frame} named by its
 * {@code :event-type}, an exception message one named by its {@code :exception-type} (names
 * that end in {@code Exception}); an {@code error} message, which carries its code and text in
 * headers, fails the stream at once.
 */
final class EventStreamFraming implements Framing {
    private final List<Message> decoded = new ArrayList<>();
    private final MessageDecoder decoder = new MessageDecoder(decoded::add);
    private long fed;
    private long framed;
    /** A corrupt frame seen after good ones in the same chunk: the good ones go out first, then this. */
    private StreamFailure broken;

    @Override
    public List<Frame> feed(Buffer chunk) {
        if (broken != null) {
            throw broken;
        }
        byte[] bytes = chunk.getBytes();
        fed += bytes.length;
        try {
            decoder.feed(bytes);
        } catch (RuntimeException corrupt) {
            broken = broken("an unreadable event-stream frame (" + corrupt.getMessage() + ")");
        }
        List<Frame> frames = new ArrayList<>();
        for (Message message : decoded) {
            framed += message.toByteBuffer().remaining();
            frames.add(frame(message));
        }
        decoded.clear();
        if (broken != null && frames.isEmpty()) {
            throw broken;
        }
        return frames;
    }

    @Override
    public List<Frame> end() {
        if (broken != null) {
            throw broken;
        }
        if (fed != framed) {
            throw broken("the event stream ended inside a frame (" + (fed - framed) + " bytes left over)");
        }
        return List.of();
    }

    private static Frame frame(Message message) {
        String kind = header(message, ":message-type", "event");
        switch (kind) {
            case "event" -> {
                return new Frame(header(message, ":event-type", ""), message.getPayload());
            }
            case "exception" -> {
                String name = header(message, ":exception-type", "InternalServerException");
                return new Frame(name.endsWith("Exception") ? name : name + "Exception", message.getPayload());
            }
            default -> throw new StreamFailure(Failure.of(FailureClass.SERVER, "Bedrock ended the stream with "
                    + header(message, ":error-code", "an error") + ": " + header(message, ":error-message", "")));
        }
    }

    private static String header(Message message, String name, String otherwise) {
        HeaderValue value = message.getHeaders().get(name);
        return value == null ? otherwise : value.getString();
    }

    private static StreamFailure broken(String why) {
        return new StreamFailure(Failure.of(FailureClass.SERVER, "Bedrock sent " + why));
    }
}
