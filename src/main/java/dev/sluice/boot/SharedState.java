package dev.sluice.boot;

import dev.sluice.accounts.limits.RateLimiter;
import dev.sluice.accounts.limits.RateLimits;
import dev.sluice.config.RouterSettings;
import dev.sluice.router.signals.CooldownStore;
import dev.sluice.router.signals.InMemoryCooldownStore;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.state.RedisCachePins;
import dev.sluice.state.RedisCooldownStore;
import dev.sluice.state.RedisInFlightCounts;
import dev.sluice.state.RedisLatencySamples;
import dev.sluice.state.RedisRateLimits;
import dev.sluice.state.RedisUsageWindows;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.time.Scheduler;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the router's state and the callers' rate limits live. With Redis configured,
 * replicas share benches, failure counts, in-flight counts, usage windows, cache pins,
 * latency samples and key, team and model-per-key rate limits through it, each on local
 * state while Redis is away; without it, all of them live in process.
 *
 * @param redis          the link, when Redis is configured
 * @param latencySamples the latency samples replicas share through it, when Redis is configured
 */
record SharedState(Optional<RedisLink> redis, Optional<RedisLatencySamples> latencySamples, CooldownStore cooldowns,
        RoutingSignals signals, RateLimiter rateLimiter) {

    /** How long start-up waits for Redis before serving on local state (it keeps reconnecting after). */
    static final Duration REDIS_START_WAIT = Duration.ofSeconds(2);

    /** The state {@code router} configures, dated on {@code clock}; its background jobs run on {@code jobs}. */
    static SharedState open(RouterSettings router, Clock clock, Scheduler jobs, Duration callBudget, Teardown teardown) {
        Optional<RedisLink> configured = RedisLink.configured(router, callBudget, clock);
        if (configured.isEmpty()) {
            return new SharedState(Optional.empty(), Optional.empty(), new InMemoryCooldownStore(), RoutingSignals.inMemory(),
                    new RateLimits(clock));
        }
        RedisLink link = teardown.add(configured.get());
        // Every part listens to the link before it connects, so none misses what the first connection reads.
        CooldownStore cooldowns = new RedisCooldownStore(link, clock);
        RedisInFlightCounts inFlight = teardown.add(new RedisInFlightCounts(link, clock, jobs));
        RedisLatencySamples latency = new RedisLatencySamples(link);
        RoutingSignals signals = new RoutingSignals(inFlight, new RedisUsageWindows(link), latency, new RedisCachePins(link, clock));
        RedisRateLimits limits = teardown.add(new RedisRateLimits(link, clock, jobs));
        link.start(REDIS_START_WAIT);
        return new SharedState(configured, Optional.of(latency), cooldowns, signals, limits);
    }
}
