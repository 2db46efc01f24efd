package dev.sluice.router;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routing decisions as structured log lines with stable names, the ones
 * {@code docs/reliability.md} lists: {@code dispatch.*} for what an upstream did,
 * {@code router.*} for what Sluice did about it. Values are {@code key=value}, causes quoted.
 */
public final class RouterLog implements RouterEvents {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.router");

    @Override
    public void attempt(String callId, String group, String deploymentId, int attempt) {
        log.debug("router.attempt call_id={} group={} deployment={} attempt={}", callId, group, deploymentId, attempt);
    }

    @Override
    public void attemptFailed(String callId, String group, String deploymentId, Failure failure) {
        String name = switch (failure.kind()) {
            case TRANSPORT -> "dispatch.transport_error";
            case TIMEOUT -> "dispatch.timeout";
            case RATE_LIMITED -> "dispatch.rate_limited";
            case SERVER -> "dispatch.server_error";
            case AUTH -> "dispatch.auth_error";
            case NOT_FOUND -> "dispatch.not_found";
            case REJECTED, CONTEXT_WINDOW, CONTENT_POLICY -> "dispatch.request_rejected";
            case GUARDRAIL -> "dispatch.guardrail_refused";
        };
        log.warn("{} call_id={} group={} deployment={} class={} status={} cause=\"{}\"", name, callId, group, deploymentId,
                failure.kind().wireName(), failure.status(), failure.cause());
    }

    @Override
    public void retry(String callId, String group, String deploymentId, Failure failure, long delayMillis) {
        log.info("router.retry call_id={} group={} deployment={} class={} delay_ms={}", callId, group, deploymentId,
                failure.kind().wireName(), delayMillis);
    }

    @Override
    public void failover(String callId, String group, String fromDeploymentId, Failure failure) {
        log.info("router.failover call_id={} group={} from={} class={}", callId, group, fromDeploymentId, failure.kind().wireName());
    }

    @Override
    public void bench(String group, String deploymentId, FailureClass cause, Instant until) {
        log.warn("router.deployment_benched group={} deployment={} class={} until={}", group, deploymentId, cause.wireName(), until);
    }

    @Override
    public void unbench(String group, String deploymentId) {
        log.info("router.deployment_unbenched group={} deployment={}", group, deploymentId);
    }

    @Override
    public void fallback(String callId, String fromGroup, String toGroup, Failure failure) {
        log.info("router.fallback call_id={} from={} to={} class={}", callId, fromGroup, toGroup, failure.kind().wireName());
    }

    @Override
    public void skip(String callId, String fromGroup, String toGroup, SkipReason reason) {
        log.info("router.fallback_skipped call_id={} from={} to={} reason={}", callId, fromGroup, toGroup, reason.wireName());
    }
}
