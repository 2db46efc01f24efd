package dev.sluice.store.journal;

import dev.sluice.store.SpendRow;
import dev.sluice.store.SpendRowCodec;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The journal's record format: one {@link SpendRow} as a binary frame, its body a
 * {@link SpendRowCodec} body.
 *
 * <pre>
 * frame := length:int32  crc:int32  body[length]        crc = CRC32C(body)
 * </pre>
 *
 * A frame whose length is out of range or whose checksum fails is corrupt; a frame that runs
 * past the end of its file is torn (the process died mid-write).
 */
final class RecordCodec {
    static final int HEADER_BYTES = 8;
    static final int MIN_BODY_BYTES = SpendRowCodec.MIN_BODY_BYTES;
    static final int VERSION_2_FIELD_BYTES = SpendRowCodec.VERSION_2_FIELD_BYTES;
    static final int MAX_BODY_BYTES = SpendRowCodec.MAX_BODY_BYTES;

    private RecordCodec() {}

    /** A decoded record: the row and when it was appended. */
    record Entry(SpendRow row, long appendedAtMillis) {}

    /**
     * The frame's size for {@code row}, with its strings' bytes already made.
     *
     * @throws IllegalArgumentException when the row's body would pass {@link #MAX_BODY_BYTES}
     */
    static Encoded prepare(SpendRow row) {
        return new Encoded(SpendRowCodec.prepare(row));
    }

    /** Each platform thread's frame buffer; see {@link Encoded#frame}. */
    private static final ThreadLocal<ByteBuffer> FRAMES = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(1024));

    /** A row ready to be written as a frame of {@link #frameBytes} bytes. */
    record Encoded(SpendRowCodec.Encoded body) {
        int frameBytes() {
            return HEADER_BYTES + body.bodyBytes();
        }

        /**
         * The whole frame, ready to write, in a buffer valid until this thread's next frame. A
         * platform thread (an event loop) encodes into one direct buffer it keeps, which the
         * operating system's write takes as it is, where a heap buffer would first be copied
         * into a direct one; a virtual thread, which may be one of millions, gets a heap buffer.
         */
        ByteBuffer frame(long appendedAtMillis) {
            int frameBytes = frameBytes();
            ByteBuffer buffer;
            if (Thread.currentThread().isVirtual()) {
                buffer = ByteBuffer.allocate(frameBytes);
            } else {
                buffer = FRAMES.get();
                if (buffer.capacity() < frameBytes) {
                    buffer = ByteBuffer.allocateDirect(Math.max(frameBytes, buffer.capacity() * 2));
                    FRAMES.set(buffer);
                }
                buffer.clear().limit(frameBytes);
            }
            writeTo(buffer, appendedAtMillis);
            return buffer.flip();
        }

        /** Puts the whole frame at {@code out}'s position. */
        void writeTo(ByteBuffer out, long appendedAtMillis) {
            int start = out.position();
            out.putInt(body.bodyBytes()).putInt(0);
            body.writeBody(out, appendedAtMillis);
            CRC32C crc = new CRC32C();
            crc.update(out.slice(start + HEADER_BYTES, body.bodyBytes()));
            out.putInt(start + 4, (int) crc.getValue());
        }
    }

    /** Whether {@code length}, read from a frame's header, is one a frame can have. */
    static boolean plausibleLength(int length) {
        return length >= MIN_BODY_BYTES && length <= MAX_BODY_BYTES;
    }

    /** Whether the body of {@code length} bytes at {@code bodyStart} matches {@code expected}. */
    static boolean checksumMatches(ByteBuffer in, int bodyStart, int length, int expected) {
        CRC32C crc = new CRC32C();
        crc.update(in.slice(bodyStart, length));
        return (int) crc.getValue() == expected;
    }

    /**
     * Decodes a body whose checksum matched.
     *
     * @return empty when it does not hold a row this version writes (which a matching checksum
     *         makes all but impossible, short of a bug or another format)
     */
    static Optional<Entry> decode(ByteBuffer body) {
        return SpendRowCodec.decode(body).map(decoded -> new Entry(decoded.row(), decoded.appendedAtMillis()));
    }
}
