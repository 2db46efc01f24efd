package dev.sluice.vendors.mock;

import io.vertx.core.buffer.Buffer;
import java.util.OptionalInt;

/**
 * An error answer: its status, its OpenAI-shaped body and, for rate limits, the
 * {@code Retry-After} header. Bodies may be shared between answers; Vert.x writes a slice.
 */
public record MockError(int status, Buffer body, OptionalInt retryAfterSeconds) {

    public MockError(int status, Buffer body) {
        this(status, body, OptionalInt.empty());
    }
}
