package dev.sluice.wire;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import java.io.InputStream;
import java.util.Optional;

/**
 * A request body read as JSON, with the error a caller is shown when it is not JSON: a 400
 * {@code invalid_json} giving the parser's reason and where ({@link JsonProblems#describe}).
 * What a body that holds no value, or a value of the wrong type, means is the caller's to say.
 */
public final class JsonBody {
    private JsonBody() {}

    /** The value the body holds, parsed within the default {@link JsonLimits}; empty when it holds none. */
    public static Optional<JsonNode> parse(byte[] bytes) {
        return parse(Buffer.buffer(bytes));
    }

    /** The same, read in place: a large body is never copied whole into an array first. */
    public static Optional<JsonNode> parse(Buffer bytes) {
        return new JsonReading(JsonLimits.DEFAULTS).parse(bytes);
    }

    /** A buffer as a stream, for a parser that reads it a piece at a time. */
    static InputStream stream(Buffer bytes) {
        return new BufferStream(bytes);
    }

    /** A buffer as a stream, handing the parser its bytes a piece at a time. */
    private static final class BufferStream extends InputStream {
        private final Buffer buffer;
        private int at;

        BufferStream(Buffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int read() {
            return at < buffer.length() ? buffer.getByte(at++) & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (at >= buffer.length()) {
                return -1;
            }
            int count = Math.min(length, buffer.length() - at);
            buffer.getBytes(at, at + count, into, offset);
            at += count;
            return count;
        }
    }

    static ApiError unparsable(String reason) {
        return ApiError.invalidRequest("We could not parse the JSON body of your request: " + reason, null, "invalid_json");
    }
}
