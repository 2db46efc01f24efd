package dev.sluice.http;

import dev.sluice.wire.ApiError;
import dev.sluice.wire.JsonLimits;
import dev.sluice.wire.JsonReading;
import io.vertx.core.Future;
import java.time.Duration;

/**
 * What a route may read of a request body: its largest size, the budget that all bodies read
 * under these limits share, the JSON they may parse into, and how long the body may go
 * without a byte arriving.
 *
 * @param maxBytes    the largest body accepted ({@code max_request_size_mb}); a larger one is a 413
 * @param budget      the bytes all bodies read under these limits may hold at once, parsed trees included
 * @param json        how deep and how large the JSON of one body may be once parsed
 * @param idleTimeout {@code request_body_timeout_seconds}: a body that sends nothing for this long is cut
 */
public record BodyLimits(long maxBytes, BodyBudget budget, JsonLimits json, Duration idleTimeout) {
    /**
     * The largest body a route reachable without a key reads: the UI's sign-in, whose key
     * arrives in its body. A sign-in body is a key in a JSON object, some hundreds of bytes.
     */
    public static final long UNAUTHENTICATED_MAX_BYTES = 4096;
    /** What all bodies read without a key may hold at once: 64 sign-ins of the largest size. */
    public static final long UNAUTHENTICATED_BUDGET_BYTES = 64 * UNAUTHENTICATED_MAX_BYTES;
    /** JSON of a sign-in: an object of a few strings. */
    public static final JsonLimits UNAUTHENTICATED_JSON = new JsonLimits(4, 64);

    public BodyLimits {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= 1)");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout: " + idleTimeout + " (expected: > 0)");
        }
    }

    /**
     * The limits of routes reachable without a key, with a budget of their own so that they
     * can never hold what keyed calls need.
     */
    public static BodyLimits unauthenticated(Duration idleTimeout) {
        return new BodyLimits(UNAUTHENTICATED_MAX_BYTES, new BodyBudget(UNAUTHENTICATED_BUDGET_BYTES), UNAUTHENTICATED_JSON,
                idleTimeout);
    }

    /** What sets {@link #maxBytes}, for the message of a body over it. */
    public String maxBytesSource() {
        return json == UNAUTHENTICATED_JSON ? "the most a route reached without a key reads"
                : "general_settings.max_request_size_mb";
    }

    /** A fresh reading of one body's JSON within these limits. */
    public JsonReading reading() {
        return new JsonReading(json);
    }

    /**
     * Holds what the trees {@code json} parsed take in the heap against the budget until
     * {@code until} completes, beside the body's bytes: a 503 the caller may retry when they do
     * not fit now, a 413 when they never could.
     */
    public void holdParsed(JsonReading json, Future<?> until) {
        long tree = json.treeBytes();
        if (tree > budget.limit()) {
            throw new ApiError(413, "invalid_request_error", "Parsed, the JSON body would take about " + tree
                    + " bytes of memory, more than the gateway may hold for request bodies (" + budget.limit()
                    + " bytes: general_settings.max_buffered_request_mb, else an eighth of the heap).", null, "json_too_large");
        }
        if (!budget.tryHoldUntil(tree, until)) {
            throw budget.busy();
        }
    }
}
