package dev.sluice.http;

import dev.sluice.api.ApiError;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body bytes all calls together may hold in memory
 * ({@code general_settings.max_buffered_request_mb}): a body that would pass it is refused
 * with a 503 the caller may retry, rather than read until the heap runs out. Shared by every
 * event loop; thread-safe.
 */
public final class BodyBudget {
    private final long limit;
    private final AtomicLong held = new AtomicLong();

    public BodyBudget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: >= 1)");
        }
        this.limit = limit;
    }

    /** Holds the bytes when they fit beside those held now; false, holding nothing, when they do not. */
    boolean tryHold(long bytes) {
        while (true) {
            long now = held.get();
            if (bytes > limit - now) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        held.addAndGet(-bytes);
    }

    /** The most bytes all bodies together may hold. */
    public long limit() {
        return limit;
    }

    /** The bytes held now, for {@code /metrics}. */
    public long held() {
        return held.get();
    }

    ApiError busy() {
        return new ApiError(503, "server_error", "The gateway holds as many request bodies as it may "
                + "(general_settings.max_buffered_request_mb); retry shortly.", null, "server_busy")
                .withHeaders(Map.of("Retry-After", "1"));
    }
}
