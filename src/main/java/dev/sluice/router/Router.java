package dev.sluice.router;

import dev.sluice.config.RouterSettings;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.strategy.RoutingStrategy;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.router.strategy.Strategies;
import dev.sluice.time.Backoff;
import dev.sluice.time.TimeSource;
import io.vertx.core.Future;
import java.time.Clock;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Routes requests to model groups: picks deployments, retries, fails over to siblings,
 * benches and falls back, all read off the failure class (see {@link AttemptLoop}). Shared
 * by every event loop; a request's own state lives in its {@link AttemptLoop}.
 */
public final class Router {
    private final ModelRegistry models;
    private final LiveRouterSettings settings;
    private final Cooldowns cooldowns;
    private final Picking picking;
    private final Timing timing;
    private final RouterEvents events;

    /**
     * How deployments are picked.
     *
     * @param strategies    the routing strategies, by name
     * @param preCallChecks what narrows the candidates before a strategy picks
     * @param random        the randomness of shuffles and jitter
     */
    public record Picking(Strategies strategies, PreCallChecks preCallChecks, RandomGenerator random) {}

    /**
     * The router's time.
     *
     * @param time    wall-clock time (usage windows are calendar minutes) and the monotonic
     *                ticker deadlines are measured with
     * @param backoff the waits before a deployment is tried again in place
     */
    public record Timing(TimeSource time, Backoff backoff) {}

    /** @param settings the settings in effect, taken once per request */
    public Router(ModelRegistry models, LiveRouterSettings settings, Cooldowns cooldowns, Picking picking, Timing timing,
            RouterEvents events) {
        this.models = models;
        this.settings = settings;
        this.cooldowns = cooldowns;
        this.picking = picking;
        this.timing = timing;
        this.events = events;
    }

    /** Routes one request to its group and, if the group is exhausted, its fallbacks. */
    public <T> Future<RouteOutcome<T>> route(RouteRequest<T> request) {
        // One set of settings for the whole request, however the settings change while it runs.
        RouterSettings settings = this.settings.current();
        Deadline deadline = Deadline.start(timing.time(), request.overrides().timeout(), settings);
        RoutingStrategy strategy = picking.strategies().named(request.overrides().routingStrategy().orElse(settings.routing().routingStrategy()));
        return new AttemptLoop<>(this, settings, request, strategy, deadline).run();
    }

    /** The signals every strategy reads; the request path feeds them through this. */
    public SignalRecorder signals() {
        return picking.strategies().recorder();
    }

    public PreCallChecks preCallChecks() {
        return picking.preCallChecks();
    }

    ModelGroups groups() {
        return models.current();
    }

    /** The settings in effect; {@link LiveRouterSettings#current()} once per request or decision. */
    public LiveRouterSettings settings() {
        return settings;
    }

    Cooldowns cooldowns() {
        return cooldowns;
    }

    Clock clock() {
        return timing.time().clock();
    }

    RandomGenerator random() {
        return picking.random();
    }

    Backoff backoff() {
        return timing.backoff();
    }

    LongSupplier nanoTime() {
        return timing.time().ticker();
    }

    /** Where the router tells what it does; the request path adds what only it sees (a stream cut after its start). */
    public RouterEvents events() {
        return events;
    }
}
