package dev.sluice.vendors.openai.responses.store;

import dev.sluice.store.StoredResponse;
import java.time.Instant;

/** Responses of a known size for the response store tests. */
final class StoredResponses {
    /** The JSON around the padding of {@link #sized}: {@code {"id":"<id>","pad":""}} and {@code []}. */
    private static final int FRAME = "{\"id\":\"\",\"pad\":\"\"}".length() + "[]".length();

    private StoredResponses() {}

    /** A response answered at {@code createdAt}, kept as long as {@code limits} allow, of exactly {@code bytes} bytes of JSON. */
    static StoredResponse sized(String id, String owner, Instant createdAt, ResponseLimits limits, long bytes) {
        int pad = Math.toIntExact(bytes - FRAME - id.length());
        if (pad < 0) {
            throw new IllegalArgumentException("bytes: " + bytes + " (expected: at least " + (FRAME + id.length()) + ")");
        }
        return new StoredResponse(id, owner, "gpt-4o", createdAt, limits.expiresAt(createdAt),
                "{\"id\":\"" + id + "\",\"pad\":\"" + "x".repeat(pad) + "\"}", "[]");
    }

    static StoredResponse response(String id, String owner, Instant createdAt, ResponseLimits limits) {
        return sized(id, owner, createdAt, limits, 100);
    }
}
