package dev.sluice.server;

import dev.sluice.access.AccessControl;
import dev.sluice.access.Accounts;
import dev.sluice.health.HealthChecks;
import dev.sluice.metrics.GatewayMetrics;
import dev.sluice.router.ModelRegistry;
import dev.sluice.state.redis.RedisLink;
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
 */
public record EdgeServices(ModelRegistry models, AccessControl access, Optional<Accounts> accounts, Optional<RedisLink> redis,
        GatewayMetrics metrics, HealthChecks health, long startedEpochSecond) {}
