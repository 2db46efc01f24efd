package dev.sluice.server;

import dev.sluice.call.RecentCalls;
import dev.sluice.provider.Providers;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.DeploymentFailures;

/**
 * What the data routes the admin UI reads ({@code /model/state}, {@code /calls/recent}) see
 * of the running router and call path. All of it is thread-safe.
 *
 * @param cooldowns  each deployment's bench and failure counts, as the (possibly shared) cooldown store holds them
 * @param failures   each deployment's last failures seen by this replica, and why it was last benched
 * @param calls      this replica's last calls
 * @param providers  the provider adapters: a failure's message is shown with its deployment's key masked
 */
public record LiveState(Cooldowns cooldowns, DeploymentFailures failures, RecentCalls calls, Providers providers) {}
