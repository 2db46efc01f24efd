package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import java.util.List;
import java.util.Optional;

/**
 * What routing one request came to, and the trail that led there.
 *
 * @param served             the answer, when a deployment served the request
 * @param cancelled          the caller left before an answer; nothing more is to be said
 * @param lastGroup          the group of the last attempt
 * @param lastDeployment     the deployment that served, or that answered last
 * @param retriesInLastGroup retries and sibling failovers made in {@code lastGroup}
 * @param fallbacksTried     fallback groups tried
 * @param failure            when not served: the failure the caller is answered with (the
 *                           requested group's, unless a fallback's guardrail refused), and
 *                           where it happened
 * @param groups             every group tried, the requested one first, with its attempts
 * @param skipped            fallback groups that were not tried, and why
 */
public record RouteOutcome<T>(
        Optional<T> served,
        boolean cancelled,
        String lastGroup,
        Deployment lastDeployment,
        int retriesInLastGroup,
        int fallbacksTried,
        Optional<FailedAt> failure,
        List<GroupRun> groups,
        List<SkippedFallback> skipped) {

    /** The group the caller asked for. */
    public String requestedGroup() {
        return groups.getFirst().group();
    }

    /** One group's part of the request: each attempt's deployment and, when it failed, how. */
    public record GroupRun(String group, List<Tried> attempts) {
        public Optional<Failure> lastFailure() {
            return attempts.isEmpty() ? Optional.empty() : attempts.getLast().failure();
        }
    }

    /** One attempt: the deployment called and, unless it served, how it failed (its upstream's headers included). */
    public record Tried(Deployment deployment, Optional<Failure> failure) {
        public static Tried served(Deployment deployment) {
            return new Tried(deployment, Optional.empty());
        }

        public static Tried failed(Deployment deployment, Failure failure) {
            return new Tried(deployment, Optional.of(failure));
        }
    }

    /**
     * A failure and where it happened.
     *
     * @param deployment the deployment whose attempt failed; empty when the group refused the
     *                   request before calling any (no window for the prompt, no room this minute)
     */
    public record FailedAt(String group, Optional<Deployment> deployment, Failure failure) {}

    public record SkippedFallback(String group, SkipReason reason) {}
}
