package dev.sluice.router;

import io.vertx.core.Future;

/**
 * Makes one attempt: calls the planned deployment and reports how it went. The router
 * knows nothing of HTTP; this is where a request meets a provider. The future must not
 * fail: every failure is an {@link AttemptResult.Failed} with its class.
 */
@FunctionalInterface
public interface Attempter<T> {
    Future<AttemptResult<T>> attempt(AttemptPlan plan);
}
