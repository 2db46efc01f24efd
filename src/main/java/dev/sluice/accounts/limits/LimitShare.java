package dev.sluice.accounts.limits;

import java.util.OptionalLong;

/**
 * A replica's share of a scope's limits while it decides alone, Redis being out of reach: of
 * what was left of the window when it last heard the shared counts, divided among the replicas
 * it last saw alive, rounded down.
 *
 * <p>Rounding down, with no floor of one, is what keeps the replicas' shares together within
 * what was left: with 1 left and two replicas, neither admits. A {@code max_parallel_requests}
 * is shared whole, as calls in flight come and go: each replica keeps its own calls (those
 * admitted through Redis included) under its share, so once the calls open at the cut have
 * ended, the replicas together hold no more than the limit.
 */
public final class LimitShare {
    private LimitShare() {}

    /** {@code limit} less what the window has {@code used}, divided among {@code replicas}, rounded down; never below 0. */
    public static long ofWhatIsLeft(long limit, long used, int replicas) {
        long left = Math.max(0, limit - Math.max(0, used));
        return left / Math.max(1, replicas);
    }

    /**
     * The limits a replica decides on alone: {@code rpm} and {@code tpm} of what the shared
     * window had left ({@code requests}, {@code tokens} used as last heard), {@code max_parallel_requests}
     * of the whole limit; each divided among {@code replicas}.
     */
    public static Limits of(Limits limits, long requests, long tokens, int replicas) {
        return new Limits(share(limits.rpm(), requests, replicas), share(limits.tpm(), tokens, replicas),
                share(limits.maxParallelRequests(), 0, replicas));
    }

    private static OptionalLong share(OptionalLong limit, long used, int replicas) {
        return limit.isEmpty() ? limit : OptionalLong.of(ofWhatIsLeft(limit.getAsLong(), used, replicas));
    }
}
