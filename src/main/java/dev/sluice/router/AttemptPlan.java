package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;

/**
 * One attempt the router asks for: call this deployment of this group within this deadline.
 *
 * @param target         the name the group was reached by: the requested group's, or a
 *                       fallback's as written (a name a wildcard group serves, an alias)
 * @param deadline       what the attempt is allowed, fixed as it starts: its own deadline
 *                       already cut to what is left of the request's total, what is left of the
 *                       total, and a stream's waits
 * @param retriesInGroup retries and sibling failovers made in this group before this attempt
 * @param fallbacksTried fallback groups tried before this one (0 on the requested group)
 * @param settings       the router settings the request took when it started
 */
public record AttemptPlan(ModelGroup group, String target, Deployment deployment, Deadline.Attempt deadline, int retriesInGroup,
        int fallbacksTried, RouterSettings settings) {}
