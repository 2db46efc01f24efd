package dev.sluice.vendors.bedrock.provider;

import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/** Event-stream frames for tests, written by AWS's encoder. */
final class Frames {
    private Frames() {}

    static Buffer event(String type, String json) {
        return message(":event-type", type, "event", json);
    }

    static Buffer exception(String type, String json) {
        return message(":exception-type", type, "exception", json);
    }

    /** The frame with one payload byte changed, so its message CRC no longer matches. */
    static Buffer corrupt(Buffer frame) {
        byte[] bytes = frame.getBytes();
        bytes[bytes.length - 6] ^= 0x20;
        return Buffer.buffer(bytes);
    }

    private static Buffer message(String typeHeader, String type, String messageType, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(typeHeader, HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        headers.put(":message-type", HeaderValue.fromString(messageType));
        ByteBuffer encoded = new Message(headers, json.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return Buffer.buffer(bytes);
    }
}
