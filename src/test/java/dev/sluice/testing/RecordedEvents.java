package dev.sluice.testing;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.SkipReason;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Routing events as short lines, in order, for asserting a sequence:
 * {@code attempt a1}, {@code failed a1 not_found}, {@code failover a1}, {@code retry a1 server},
 * {@code bench a1 not_found}, {@code unbench a1}, {@code fallback g1->g2}, {@code skip g2 already_tried}.
 */
public final class RecordedEvents implements RouterEvents {
    private final List<String> lines = new CopyOnWriteArrayList<>();

    public List<String> lines() {
        return List.copyOf(lines);
    }

    public void clear() {
        lines.clear();
    }

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        lines.add("attempt " + deploymentId);
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        lines.add("failed " + deploymentId + " " + failure.kind().wireName());
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        lines.add("retry " + deploymentId + " " + failure.kind().wireName());
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        lines.add("failover " + fromDeploymentId);
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        lines.add("bench " + deploymentId + " " + cause.wireName());
    }

    @Override
    public void unbench(String group, String deploymentId) {
        lines.add("unbench " + deploymentId);
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        lines.add("fallback " + fromGroup + "->" + toGroup);
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        lines.add("skip " + toGroup + " " + reason.wireName());
    }
}
