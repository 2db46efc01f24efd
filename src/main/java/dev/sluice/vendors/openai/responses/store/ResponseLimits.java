package dev.sluice.vendors.openai.responses.store;

import dev.sluice.store.StoredResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How much of the answered responses a {@link ResponseStore} keeps: each for at most
 * {@code maxAge} after it was answered, at most {@code maxCount} of them (in the database,
 * pruned back to that many every so many saves), and in memory at most {@code maxBytes} of
 * their JSON in all. The oldest go first. A single response larger than {@code maxBytes} is
 * not kept by either.
 *
 * @param maxAge   how long a response is served after it was answered; more than zero
 * @param maxCount how many responses are kept; at least one
 * @param maxBytes how many bytes of response and conversation JSON are kept (the memory store's
 *                 total, and every store's bound on a single response); at least one
 */
public record ResponseLimits(Duration maxAge, int maxCount, long maxBytes) {
    /** As long as OpenAI keeps a stored response. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(30);

    /** Without a store: ten thousand responses within 64 MiB of the gateway's heap. */
    public static final ResponseLimits MEMORY_DEFAULTS = new ResponseLimits(DEFAULT_MAX_AGE, 10_000, 64L << 20);

    /**
     * With a store: a hundred thousand rows (a few GB of typical conversations in the
     * database the gateway shares), none over 64 MiB (twice the largest request accepted by
     * default).
     */
    public static final ResponseLimits DATABASE_DEFAULTS = new ResponseLimits(DEFAULT_MAX_AGE, 100_000, 64L << 20);

    public ResponseLimits {
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge: " + maxAge + " (expected: > 0)");
        }
        if (maxCount < 1) {
            throw new IllegalArgumentException("maxCount: " + maxCount + " (expected: >= 1)");
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 1)");
        }
    }

    /** When a response answered at {@code createdAt} stops being served: what to give {@link StoredResponse#expiresAt()}. */
    public Instant expiresAt(Instant createdAt) {
        return createdAt.plus(maxAge);
    }

    /**
     * Refuses a response no store under these limits may keep: one larger than
     * {@code maxBytes}, or one meant to be served longer than {@code maxAge}.
     *
     * @throws IllegalArgumentException naming the response, its measure and the limit
     */
    public void check(StoredResponse response) {
        long size = response.sizeBytes();
        if (size > maxBytes) {
            throw new IllegalArgumentException("response " + response.id() + ": " + size
                    + " bytes of JSON (expected: at most maxBytes, " + maxBytes + ", to be kept)");
        }
        if (response.expiresAt().isAfter(expiresAt(response.createdAt()))) {
            throw new IllegalArgumentException("response " + response.id() + ": expiresAt " + response.expiresAt()
                    + " (expected: at most maxAge, " + maxAge + ", after createdAt " + response.createdAt() + ")");
        }
    }
}
