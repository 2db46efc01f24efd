package dev.sluice.edge;

import dev.sluice.call.RecentCalls;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.DeploymentFailures;

/**
 * What the data routes the admin UI reads ({@code /model/state}, {@code /calls/recent}) see
 * of the running router and call path. All of it is thread-safe.
 *
 * @param cooldowns  each deployment's bench and failure counts, as the (possibly shared) cooldown store holds them
 * @param failures   each deployment's last failures seen by this replica (keys masked), and why it was last benched
 * @param calls      this replica's last calls (failure messages kept with their deployment's keys masked)
 */
public record LiveState(Cooldowns cooldowns, DeploymentFailures failures, RecentCalls calls) {}
