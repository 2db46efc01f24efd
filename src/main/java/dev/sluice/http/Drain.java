package dev.sluice.http;

import dev.sluice.wire.ApiError;
import io.vertx.core.Context;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A gateway's stop, as the calls see it. Once {@link #start() started}, readiness says the
 * gateway is going away and every new call is answered {@link #refusal()}; the calls already
 * in flight are left to finish, and those still open when the drain deadline runs out are
 * {@link #cutAll() cut}, each on its own event loop. Thread-safe.
 */
public final class Drain {
    /** How long a caller is told to wait before it calls again (on another replica, once this one has gone). */
    public static final String RETRY_AFTER_SECONDS = "1";

    /** A call in flight that a drain may cut; {@link #cut()} runs on the call's own event loop. */
    public interface Call {
        void cut();
    }

    private record Open(Call call, Context context) {}

    private final Set<Open> open = ConcurrentHashMap.newKeySet();
    /** Calls that ended once the drain had started, however they ended: what the drain waited for. */
    private final LongAdder endedWhileDraining = new LongAdder();
    private volatile boolean draining;

    public boolean draining() {
        return draining;
    }

    /** From now on readiness fails and new calls are refused. */
    public void start() {
        draining = true;
    }

    /**
     * Registers a call just arrived, on its event loop; the returned handle is run once when
     * it ends, however it ends.
     */
    public Runnable opened(Call call, Context context) {
        Open entry = new Open(call, context);
        open.add(entry);
        return () -> {
            if (open.remove(entry) && draining) {
                endedWhileDraining.increment();
            }
        };
    }

    /** Calls that ended after {@link #start()}, those cut included. */
    public long endedWhileDraining() {
        return endedWhileDraining.sum();
    }

    /** Calls still in flight. */
    public int inFlight() {
        return open.size();
    }

    /** Cuts every call still in flight, each on its own event loop; returns how many were told to end. */
    public int cutAll() {
        int cut = 0;
        for (Open entry : open) {
            entry.context().runOnContext(v -> entry.call().cut());
            cut++;
        }
        return cut;
    }

    /** The answer to a call that arrives while the gateway drains: it should go to another replica. */
    public static ApiError refusal() {
        return new ApiError(503, "service_unavailable", "Sluice is shutting down; send this call to another replica.", null,
                "shutting_down").withHeaders(Map.of("Retry-After", RETRY_AFTER_SECONDS, "Connection", "close"));
    }

    /** What readiness answers while the gateway drains, so that load balancers take it out of rotation. */
    public static ApiError notReady() {
        return new ApiError(503, "service_unavailable", "Sluice is shutting down: not ready.", null, "shutting_down")
                .withHeaders(Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }

    /** The answer to a call cut because the drain deadline ran out before it was answered. */
    public static ApiError cut() {
        return new ApiError(503, "service_unavailable",
                "Sluice shut down before this call was answered: the drain deadline ran out. Send it again.", null,
                "shutting_down").withHeaders(Map.of("Retry-After", RETRY_AFTER_SECONDS, "Connection", "close"));
    }
}
