package dev.sluice.edge;

import dev.sluice.accounts.AccessControl;
import dev.sluice.accounts.Accounts;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.ops.health.HealthChecks;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.ModelRegistry;
import dev.sluice.store.redis.RedisLink;
import java.time.Clock;
import java.util.Optional;

/**
 * What the routes that call no model (the model list, model info, health, readiness,
 * metrics) read of the running gateway. All of it is thread-safe.
 *
 * @param accounts           keys, teams and spend in the store; empty when no store is open
 * @param redis              the link replicas share router state through; empty without Redis
 * @param health             the probes behind {@code GET /health}, and their background rounds
 * @param startedEpochSecond when the gateway started, for the {@code created} field of
 *                           {@code /v1/models}
 * @param catalog            what is known of a model beyond its config, for {@code /model/info}
 * @param readiness          the cache type and success callbacks configured, for readiness
 * @param clock              when readiness last probed the database ({@code last_updated})
 * @param routerSettings     the router settings in effect ({@code model_group_alias} names models too)
 * @param live               the router's and the call path's live state, for {@code /model/state} and {@code /calls/recent}
 */
public record EdgeServices(ModelRegistry models, AccessControl access, Optional<Accounts> accounts, Optional<RedisLink> redis,
        GatewayMetrics metrics, HealthChecks health, long startedEpochSecond, ModelCatalog catalog, ReadinessFacts readiness,
        Clock clock, LiveRouterSettings routerSettings, LiveState live) {}
