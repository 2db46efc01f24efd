package dev.sluice.accounts.limits;

import io.vertx.core.Future;
import java.time.Instant;

/**
 * Where a gateway's rate limits are counted: in this process ({@link RateLimits}), or in a
 * store the replicas share. Either way a decision is all or nothing and exact under any
 * concurrency; a shared store answers later, so the decision is a future.
 */
public interface RateLimiter {

    /**
     * Decides whether the request {@code subject} describes may start at {@code now}. Never
     * fails: a shared store that cannot answer decides on this process's counts instead.
     * Completes on the calling Vert.x context when there is one.
     */
    Future<Admission> check(LimitSubject subject, Instant now);
}
