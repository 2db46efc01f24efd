package dev.sluice.http;

import io.vertx.core.http.HttpServerRequest;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The call id of a request: the caller's {@code x-litellm-call-id} when it sends one,
 * else a new time-ordered UUID (version 7: the milliseconds since the epoch, then 74
 * random bits, the milliseconds read off the gateway's clock). Call ids correlate logs; they are not secrets, so a fast
 * non-cryptographic random source is enough.
 *
 * <p>Time order matters to the store: the spend log is keyed by this id, and ids that grow
 * with time land at the end of its primary key's index, in pages already in memory, where
 * random ids would rewrite a different page of an ever larger index for every row.
 */
public final class CallIds {
    public static final String HEADER = "x-litellm-call-id";
    private static final int MAX_LENGTH = 128;

    private CallIds() {}

    /** The caller's id, else a new one made at {@code clock}'s time. */
    public static String of(HttpServerRequest request, Clock clock) {
        String given = request.getHeader(HEADER);
        if (given != null && !given.isBlank() && given.length() <= MAX_LENGTH) {
            return given.strip();
        }
        return made(clock);
    }

    /**
     * The id a call's spend row is logged under, unique per call: the call id when Sluice
     * made it; a caller's own id (which a caller may send again, on a retry of its own) with a
     * random suffix, {@code <id>#<uuid>}, so that every call is logged and charged.
     */
    public static String spendRowId(HttpServerRequest request, String callId, Clock clock) {
        String given = request.getHeader(HEADER);
        return given != null && callId.equals(given.strip()) ? callId + "#" + made(clock) : callId;
    }

    private static String made(Clock clock) {
        return timeOrdered(clock.millis());
    }

    /** A version 7 UUID for {@code epochMillis}: 48 bits of time, then random bits. */
    static String timeOrdered(long epochMillis) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (epochMillis << 16) | 0x7000L | (random.nextInt() & 0x0FFF); // version 7
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(high, low).toString();
    }
}
