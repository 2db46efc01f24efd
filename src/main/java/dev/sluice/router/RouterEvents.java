package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import java.time.Instant;
import java.util.Optional;

/**
 * What the router does, as it does it, for logs, metrics and tests. Every method has an
 * empty default so a listener implements only what it needs. Called on the thread that made
 * the decision; a listener must be quick and must not throw.
 */
public interface RouterEvents {
    RouterEvents NONE = new RouterEvents() {};

    /** Tells every listener, in order. */
    static RouterEvents all(RouterEvents... listeners) {
        return new FanOutEvents(java.util.List.of(listeners));
    }

    /** A deployment is about to be called; {@code attempt} counts from 0 within the request. */
    default void attempt(String callId, String group, String deploymentId, int attempt) {}

    /**
     * An attempt sent to a deployment is over after {@code nanos}: served (no failure; for a
     * stream, once its first event came), or failed with {@code failure}. Not called for a
     * cancelled attempt (the caller left).
     */
    default void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {}

    /**
     * A stream already relayed to the caller broke before its end: its upstream failed
     * ({@code cause}) after the first event, too late to try anyone else.
     */
    default void streamCut(String callId, String group, String deploymentId, String cause) {}

    /** An attempt failed; what follows (retry, failover, fallback or the answer) is reported next. */
    default void attemptFailed(String callId, String group, String deploymentId, Failure failure) {}

    /**
     * An attempt sent to {@code deployment} failed: the event above, told with the deployment
     * as it was called, for a listener that needs more of it than its id (the keys it was
     * sent, to mask them in a message it keeps, even after the deployment is updated). Tells
     * the event above unless overridden. An attempt refused before any deployment was called
     * is told only by the event above.
     */
    default void attemptFailed(String callId, String group, Deployment deployment, Failure failure) {
        attemptFailed(callId, group, deployment.id(), failure);
    }

    /** An attempt failed and the same deployment will be tried again after {@code delayMillis}. */
    default void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {}

    /** An attempt failed and an untried sibling will get the request. */
    default void failover(String callId, String group, String fromDeploymentId, Failure failure) {}

    /** A deployment was benched until {@code until}. */
    default void bench(String group, String deploymentId, FailureClass cause, Instant until) {}

    /** A deployment's bench ended and it takes traffic again. */
    default void unbench(String group, String deploymentId) {}

    /** The group was exhausted and {@code toGroup} will get the request. */
    default void fallback(String callId, String fromGroup, String toGroup, Failure failure) {}

    /** A fallback group was not tried, and why. */
    default void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {}
}
