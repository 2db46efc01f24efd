package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Tells several listeners of each event, in order. Each gets the same arguments; they are
 * immutable ({@link Failure} included), so what one listener does with them cannot change
 * what the next one reads.
 */
final class FanOutEvents implements RouterEvents {
    private final List<RouterEvents> listeners;

    FanOutEvents(List<RouterEvents> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        listeners.forEach(l -> l.attempt(callId, group, deploymentId, attempt));
    }

    @Override
    public void attemptEnded(String callId, String group, String deploymentId, Optional<Failure> failure, long nanos) {
        listeners.forEach(l -> l.attemptEnded(callId, group, deploymentId, failure, nanos));
    }

    @Override
    public void streamCut(String callId, String group, String deploymentId, String cause) {
        listeners.forEach(l -> l.streamCut(callId, group, deploymentId, cause));
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        listeners.forEach(l -> l.attemptFailed(callId, group, deploymentId, failure));
    }

    @Override
    public void attemptFailed(String callId, String group, Deployment deployment, Failure failure) {
        listeners.forEach(l -> l.attemptFailed(callId, group, deployment, failure));
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        listeners.forEach(l -> l.retry(callId, group, deploymentId, failure, delayMillis));
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        listeners.forEach(l -> l.failover(callId, group, fromDeploymentId, failure));
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        listeners.forEach(l -> l.bench(group, deploymentId, cause, until));
    }

    @Override
    public void unbench(String group, String deploymentId) {
        listeners.forEach(l -> l.unbench(group, deploymentId));
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        listeners.forEach(l -> l.fallback(callId, fromGroup, toGroup, failure));
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        listeners.forEach(l -> l.skip(callId, fromGroup, toGroup, reason));
    }
}
