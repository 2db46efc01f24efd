package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body bytes all calls together may hold in memory
 * ({@code general_settings.max_buffered_request_mb}): the bytes as they arrive, and the trees
 * they are parsed into. A body that would pass it is refused with a 503 the caller may retry,
 * rather than read until the heap runs out. Shared by every event loop; thread-safe.
 *
 * <p>Bodies that arrive together must not starve each other: were each refused once the
 * budget is full, several large bodies at the same pace would all fill it and all be refused,
 * though it had room for one of them. So a body that finds no room makes the bodies behind it
 * (still arriving, holding fewer bytes) give way, the smallest first, and is refused only when
 * none is behind it: the body furthest along always goes on.
 */
public final class BodyBudget {
    private final long limit;
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong claims = new AtomicLong();
    /** The bodies still arriving: those that may give way. */
    private final Set<BodyClaim> arriving = ConcurrentHashMap.newKeySet();

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

    /** A claim for a body about to arrive; {@code onEvicted} is told (on any thread) should it give way. */
    BodyClaim claim(Runnable onEvicted) {
        BodyClaim claim = new BodyClaim(this, claims.incrementAndGet(), onEvicted);
        arriving.add(claim);
        return claim;
    }

    /**
     * Holds {@code more} bytes for {@code claim}, making bodies behind it give way while it
     * finds no room; false, holding nothing more, when no body is behind it and there is none.
     */
    boolean hold(BodyClaim claim, long more) {
        while (!claim.tryHold(more)) {
            if (claim.isReleased() || more > limit - claim.held()) {
                return false; // alone it would pass the whole budget: no body need give way
            }
            BodyClaim behind = null;
            for (BodyClaim other : arriving) {
                if (other != claim && claim.isAheadOf(other) && (behind == null || behind.isAheadOf(other))) {
                    behind = other;
                }
            }
            if (behind == null) {
                return false;
            }
            behind.evict();
        }
        return true;
    }

    /** {@code claim} no longer arrives: it may not be made to give way. */
    void arrived(BodyClaim claim) {
        arriving.remove(claim);
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
