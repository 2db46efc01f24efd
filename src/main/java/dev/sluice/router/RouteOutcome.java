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
 * @param failure            when not served: the requested group's final failure, which
 *                           is what the caller is answered with
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
        Optional<Failure> failure,
        List<GroupRun> groups,
        List<SkippedFallback> skipped) {

    /** One group's part of the request: each attempt's deployment and, when it failed, how. */
    public record GroupRun(String group, List<Tried> attempts) {
        public Optional<Failure> lastFailure() {
            return attempts.isEmpty() ? Optional.empty() : Optional.ofNullable(attempts.getLast().failure());
        }
    }

    /** @param failure null when this attempt served the request */
    public record Tried(Deployment deployment, Failure failure) {}

    /**
     * @param reason {@code already_tried}, {@code unknown_group}, {@code max_fallbacks},
     *               {@code deadline}, or the caller's {@link FallbackGate} reason
     *               ({@code no_access}, {@code over_budget})
     */
    public record SkippedFallback(String group, String reason) {}
}
