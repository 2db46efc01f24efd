package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.vertx.core.Future;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body bytes all calls together may hold in memory
 * ({@code general_settings.max_buffered_request_mb}): the bytes as they arrive, and the trees
 * they are parsed into. A body that would pass it is refused with a 503 the caller may retry,
 * rather than read until the heap runs out. Shared by every event loop; thread-safe.
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

    /** Whether {@code bytes} would fit beside those held now; nothing is held. */
    boolean hasRoom(long bytes) {
        return bytes <= limit - held.get();
    }

    /**
     * Holds {@code bytes} (a parsed body's tree) until {@code until} completes; false, holding
     * nothing, when they do not fit beside those held now.
     */
    public boolean tryHoldUntil(long bytes, Future<?> until) {
        if (bytes <= 0) {
            return true;
        }
        if (!tryHold(bytes)) {
            return false;
        }
        until.onComplete(done -> release(bytes));
        return true;
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

    /** The answer to a body that does not fit now, but may once other calls end. */
    public ApiError busy() {
        return new ApiError(503, "server_error", "The gateway holds as many request bodies as it may "
                + "(general_settings.max_buffered_request_mb); retry shortly.", null, "server_busy")
                .withHeaders(Map.of("Retry-After", "1"));
    }
}
