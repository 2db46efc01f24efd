package dev.sluice.router;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.RouterSettings;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.signals.CooldownStore;
import dev.sluice.router.signals.InMemoryCooldownStore;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.router.strategy.Strategies;
import java.util.random.RandomGenerator;

/**
 * Builds a {@link Router} and its {@link Cooldowns}: the strategies over the routing signals,
 * the pre-call checks, the one random source, the router's time and where it tells what it
 * does. The gateway's composition root and the tests that drive the router on fake time both
 * build it here, so a test routes with the wiring production has.
 */
public final class RouterFactory {
    private final ModelCatalog catalog;
    private final RandomGenerator random;
    private final Router.Timing timing;
    private final RouterEvents events;

    /**
     * What the router keeps between requests: the cooldown store and the signals strategies
     * read, in memory or shared with other replicas through Redis.
     */
    public record State(CooldownStore cooldowns, RoutingSignals signals) {
        /** State held by this process alone, as a gateway without Redis keeps it. */
        public static State inMemory() {
            return new State(new InMemoryCooldownStore(), RoutingSignals.inMemory());
        }
    }

    /** The router and its cooldowns, which the gateway also reports on and tests read. */
    public record Built(Router router, Cooldowns cooldowns) {}

    /**
     * @param catalog what the strategies and pre-call checks know of each model
     * @param random  the randomness of picks, shuffles and jitter
     * @param timing  the clock, the ticker and the backoff
     * @param events  where the router and its cooldowns tell what they do
     */
    public RouterFactory(ModelCatalog catalog, RandomGenerator random, Router.Timing timing, RouterEvents events) {
        this.catalog = catalog;
        this.random = random;
        this.timing = timing;
        this.events = events;
    }

    /**
     * A router over {@code models} and the settings in effect.
     *
     * @param started the settings at start-up, which fix the strategies' arguments and the
     *                pre-call checks; later changes reach the rest through {@code settings}
     */
    public Built build(ModelRegistry models, LiveRouterSettings settings, RouterSettings started, State state) {
        Cooldowns cooldowns = new Cooldowns(settings, state.cooldowns(), timing.time().clock(), events);
        Strategies strategies = new Strategies(state.signals(), catalog, started.routing().routingStrategyArgs(),
                timing.time().clock(), random);
        PreCallChecks checks = new PreCallChecks(started, catalog, state.signals().cachePins(), timing.time().clock());
        Router router = new Router(models, settings, cooldowns, new Router.Picking(strategies, checks, random), timing, events);
        return new Built(router, cooldowns);
    }
}
