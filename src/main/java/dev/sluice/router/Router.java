package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import io.vertx.core.Future;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.RoutingStrategy;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.router.strategy.Strategies;
import java.time.Clock;

/**
 * Routes requests to model groups: picks deployments, retries, fails over to siblings,
 * benches and falls back, all read off the failure class (see {@link AttemptLoop}). Shared
 * by every event loop; a request's own state lives in its {@link AttemptLoop}.
 */
public final class Router {
    private final ModelRegistry models;
    private final LiveRouterSettings settings;
    private final Cooldowns cooldowns;
    private final Strategies strategies;
    private final PreCallChecks preCallChecks;
    private final Clock clock;
    private final RandomGenerator random;
    private final Backoff backoff;
    private final LongSupplier nanoTime;
    private final RouterEvents events;
    private final BiFunction<RouterSettings, Deployment, Duration> attemptDeadline;

    /**
     * @param settings        the settings in effect, taken once per request
     * @param attemptDeadline a deployment's own deadline for one attempt under the request's
     *                        settings, before it is cut to what is left of the request's total
     *                        deadline
     */
    public Router(ModelRegistry models, LiveRouterSettings settings, Cooldowns cooldowns, Strategies strategies,
            PreCallChecks preCallChecks, Clock clock, RandomGenerator random, Backoff backoff, LongSupplier nanoTime,
            RouterEvents events, BiFunction<RouterSettings, Deployment, Duration> attemptDeadline) {
        this.models = models;
        this.settings = settings;
        this.cooldowns = cooldowns;
        this.strategies = strategies;
        this.preCallChecks = preCallChecks;
        this.clock = clock;
        this.random = random;
        this.backoff = backoff;
        this.nanoTime = nanoTime;
        this.events = events;
        this.attemptDeadline = attemptDeadline;
    }

    /**
     * Routes one request to {@code group}, which must exist, and its fallbacks.
     *
     * @param cancelled true once the caller has left; checked before every attempt
     */
    public <T> Future<RouteOutcome<T>> route(String callId, ModelGroup group, CallerOverrides caller, RequestFacts facts,
            Attempter<T> attempter, Delays delays, BooleanSupplier cancelled, FallbackGate gate) {
        // One set of settings for the whole request, however the settings change while it runs.
        RouterSettings settings = this.settings.current();
        Duration total = caller.timeout().orElse(settings.timeout());
        long deadlineNanos = nanoTime.getAsLong() + total.toNanos();
        RoutingStrategy strategy = strategies.named(caller.routingStrategy().orElse(settings.routingStrategy()));
        return new AttemptLoop<>(this, settings, callId, caller, strategy, facts, attempter, delays, cancelled, gate, deadlineNanos)
                .run(group);
    }

    /** The signals every strategy reads; the request path feeds them through this. */
    public SignalRecorder signals() {
        return strategies.recorder();
    }

    public PreCallChecks preCallChecks() {
        return preCallChecks;
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
        return clock;
    }

    RandomGenerator random() {
        return random;
    }

    Backoff backoff() {
        return backoff;
    }

    LongSupplier nanoTime() {
        return nanoTime;
    }

    /** Where the router tells what it does; the request path adds what only it sees (a stream cut after its start). */
    public RouterEvents events() {
        return events;
    }

    Duration attemptDeadline(RouterSettings settings, Deployment deployment) {
        return attemptDeadline.apply(settings, deployment);
    }
}
