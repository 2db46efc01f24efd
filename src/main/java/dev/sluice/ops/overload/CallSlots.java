package dev.sluice.ops.overload;

import dev.sluice.wire.ApiError;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls the gateway serves at once ({@code general_settings.global_max_parallel_requests},
 * by default what the heap holds): a call past them is answered 503 with {@code Retry-After}
 * before anything else is done for it, so that a flood of streams is turned away at the door
 * instead of filling the heap until every call times out. Thread-safe.
 */
public final class CallSlots {
    private final int max;
    private final AtomicInteger taken = new AtomicInteger();

    public CallSlots(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max: " + max + " (expected: >= 1)");
        }
        this.max = max;
    }

    /** Takes a slot; false, taking nothing, when all are taken. */
    public boolean tryTake() {
        while (true) {
            int now = taken.get();
            if (now >= max) {
                return false;
            }
            if (taken.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Gives back a slot {@link #tryTake} took. */
    public void release() {
        taken.decrementAndGet();
    }

    public int inUse() {
        return taken.get();
    }

    public int max() {
        return max;
    }

    /** The answer to a call that finds every slot taken. */
    public ApiError full() {
        return new ApiError(503, "service_unavailable", "The gateway is serving as many calls as it may at once ("
                + max + ", general_settings.global_max_parallel_requests); retry shortly.", null, "server_overloaded")
                .withHeaders(Map.of("Retry-After", "1"));
    }
}
