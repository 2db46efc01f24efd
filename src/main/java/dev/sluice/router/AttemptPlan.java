package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import java.time.Duration;

/**
 * One attempt the router asks for: call this deployment of this group within this deadline.
 *
 * @param target         the name the group was reached by: the requested group's, or a
 *                       fallback's as written (a name a wildcard group serves, an alias)
 * @param deadline       the attempt's own deadline, already cut to what is left of the
 *                       request's total deadline
 * @param totalLeft      what is left of the request's total deadline as the attempt starts:
 *                       the most any part of the attempt may take, a stream's wait for its
 *                       first event included
 * @param retriesInGroup retries and sibling failovers made in this group before this attempt
 * @param fallbacksTried fallback groups tried before this one (0 on the requested group)
 * @param settings       the router settings the request took when it started
 */
public record AttemptPlan(ModelGroup group, String target, Deployment deployment, Duration deadline, Duration totalLeft, int retriesInGroup,
        int fallbacksTried, RouterSettings settings) {}
