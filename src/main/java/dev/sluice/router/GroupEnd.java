package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.router.RouteOutcome.FailedAt;
import java.util.Optional;

/**
 * How one group's run within a request ended.
 *
 * @param deployment the deployment of the last attempt; null when none was called
 * @param failure    how it failed; null when served or cancelled
 */
record GroupEnd<T>(String group, Deployment deployment, int retries, Optional<T> served, boolean cancelled, FailedAt failure) {

    GroupEnd<T> asCancelled() {
        return new GroupEnd<>(group, deployment, retries, Optional.empty(), true, null);
    }

    /** Served, cancelled, or ended by a failure that ends the request: nothing further is tried. */
    boolean servedOrFinal() {
        return served.isPresent() || cancelled || failure.failure().kind().endsRequest();
    }
}
