package dev.sluice.server;

import dev.sluice.access.AccessControl;
import dev.sluice.access.Accounts;
import dev.sluice.config.SluiceConfig;
import dev.sluice.metrics.GatewayMetrics;
import dev.sluice.tracing.GatewayTracing;
import dev.sluice.state.redis.RedisLink;
import dev.sluice.provider.Providers;
import dev.sluice.guardrail.Guardrails;
import dev.sluice.health.HealthChecks;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.Router;
import dev.sluice.sync.StoredModelSync;
import dev.sluice.sync.StoredRouterSettingsSync;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What every event loop of the server shares: the config and what was built from it. All
 * of it is immutable or thread-safe.
 *
 * @param accounts           keys, teams and spend in the store; empty when no store is open
 * @param redis              the link replicas share router state through; empty without Redis
 * @param storedModels       the deployments added through the model API, kept in step with the
 *                           store; empty when no store is open
 * @param storedSettings     the router settings changed through the router settings API, kept in
 *                           step with the store; empty when no store is open
 * @param metrics            what {@code /metrics} shows
 * @param tracing            spans for each request and attempt; empty when no OTLP endpoint is configured
 * @param health             the probes behind {@code GET /health}, and their background rounds
 * @param env                the environment {@code os.environ/NAME} reads, also for models added at run time
 * @param clock              wall-clock time, for bench ends and HTTP dates
 * @param nanoTime           the monotonic clock deadlines are measured with
 * @param startedEpochSecond when the gateway started, for the {@code created} field of
 *                           {@code /v1/models}
 */
public record Gateway(
        SluiceConfig config,
        ModelRegistry models,
        Providers providers,
        Router router,
        Guardrails guardrails,
        AccessControl access,
        Optional<Accounts> accounts,
        Optional<RedisLink> redis,
        Optional<StoredModelSync> storedModels,
        Optional<StoredRouterSettingsSync> storedSettings,
        GatewayMetrics metrics,
        Optional<GatewayTracing> tracing,
        HealthChecks health,
        Clock clock,
        Map<String, String> env,
        LongSupplier nanoTime,
        long startedEpochSecond) {}
