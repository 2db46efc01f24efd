package dev.sluice.call.cache;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One answer in the cache, as the caller was written it: its status, content type and body
 * (a stream's events, {@code [DONE]} included, when it was a stream), when it was stored, and
 * the tokens it used, for the spend row of a call it answers again.
 *
 * <pre>
 * entry := 'S' 'C' version:int8 (1)  storedAt:int64 (epoch ms)  status:int32
 *          promptTokens:int64  completionTokens:int64  contentType:str  body:rest
 * str   := n:int16  n bytes of UTF-8
 * </pre>
 * Binary, so that an entry is stored and read back without parsing its body.
 */
public record CachedAnswer(Instant storedAt, int status, String contentType, long promptTokens, long completionTokens,
        byte[] body) {
    private static final byte VERSION = 1;
    public static final String EVENT_STREAM = "text/event-stream";

    public CachedAnswer {
        Objects.requireNonNull(storedAt, "storedAt");
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }

    /** Whether the answer was a stream of events, to be replayed as one. */
    public boolean streamed() {
        return contentType.startsWith(EVENT_STREAM);
    }

    /** What the entry takes in the cache, in bytes. */
    public int size() {
        return body.length + contentType.length() + 40;
    }

    public byte[] encode() {
        byte[] type = contentType.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(2 + 1 + 8 + 4 + 8 + 8 + 2 + type.length + body.length);
        out.put((byte) 'S').put((byte) 'C').put(VERSION).putLong(storedAt.toEpochMilli()).putInt(status)
                .putLong(promptTokens).putLong(completionTokens).putShort((short) type.length).put(type).put(body);
        return out.array();
    }

    /** The entry {@code bytes} hold; empty when they are not one this version writes (then it is a miss). */
    public static Optional<CachedAnswer> decode(byte[] bytes) {
        try {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            if (in.get() != 'S' || in.get() != 'C' || in.get() != VERSION) {
                return Optional.empty();
            }
            Instant storedAt = Instant.ofEpochMilli(in.getLong());
            int status = in.getInt();
            long prompt = in.getLong();
            long completion = in.getLong();
            byte[] type = new byte[in.getShort()];
            in.get(type);
            byte[] body = new byte[in.remaining()];
            in.get(body);
            return Optional.of(new CachedAnswer(storedAt, status, new String(type, StandardCharsets.UTF_8), prompt, completion,
                    body));
        } catch (BufferUnderflowException | NegativeArraySizeException e) {
            return Optional.empty();
        }
    }
}
