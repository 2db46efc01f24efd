package dev.sluice.http;

import io.vertx.core.http.HttpServerRequest;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The call id of a request: the caller's {@code x-litellm-call-id} when it sends one,
 * else a new random UUID. Call ids correlate logs; they are not secrets, so a fast
 * non-cryptographic random source is enough.
 */
public final class CallIds {
    public static final String HEADER = "x-litellm-call-id";
    private static final int MAX_LENGTH = 128;

    private CallIds() {}

    public static String of(HttpServerRequest request) {
        String given = request.getHeader(HEADER);
        if (given != null && !given.isBlank() && given.length() <= MAX_LENGTH) {
            return given.strip();
        }
        return random();
    }

    /**
     * The id a call's spend row is logged under, unique per call: the call id when Sluice
     * made it; a caller's own id (which a caller may send again, on a retry of its own) with a
     * random suffix, {@code <id>#<uuid>}, so that every call is logged and charged.
     */
    public static String spendRowId(HttpServerRequest request, String callId) {
        String given = request.getHeader(HEADER);
        return given != null && callId.equals(given.strip()) ? callId + "#" + random() : callId;
    }

    private static String random() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(high, low).toString();
    }
}
