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
    /**
     * What a body must hold before it may be made to give way: one smaller frees too little to
     * matter, and is never registered, so the usual small body costs the budget nothing more.
     */
    static final long GIVES_WAY_FROM = 64 * 1024;

    private final long limit;
    private final long givesWayFrom;
    private final AtomicLong held = new AtomicLong();
    /** How many bodies have become ones that may give way: their order. */
    private final AtomicLong registered = new AtomicLong();
    /** The bodies still arriving that hold enough to give way for one further along. */
    private final Set<BodyClaim> arriving = ConcurrentHashMap.newKeySet();

    public BodyBudget(long limit) {
        this(limit, GIVES_WAY_FROM);
    }

    BodyBudget(long limit, long givesWayFrom) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: >= 1)");
        }
        this.limit = limit;
        this.givesWayFrom = givesWayFrom;
    }

    long givesWayFrom() {
        return givesWayFrom;
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
        return new BodyClaim(this, onEvicted);
    }

    /**
     * {@code claim} holds enough to be worth making give way ({@link #GIVES_WAY_FROM}):
     * it is one of the bodies a body further along may evict. Most bodies never get here, so
     * they cost the set nothing.
     */
    void mayGiveWay(BodyClaim claim) {
        arriving.add(claim);
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

    /** The next number in the order bodies became ones that may give way. */
    long nextOrder() {
        return registered.incrementAndGet();
    }

    /** {@code claim} no longer arrives: it may not be made to give way. */
    void givesWayNoMore(BodyClaim claim) {
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
