package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import io.vertx.core.Future;

/**
 * Routes requests to model groups: picks deployments, retries, fails over to siblings,
 * benches and falls back, all read off the failure class (see {@link AttemptLoop}). Shared
 * by every event loop; a request's own state lives in its {@link AttemptLoop}.
 */
public final class Router {
    private final ModelRegistry models;
    private final RouterSettings settings;
    private final Cooldowns cooldowns;
    private final WeightedShuffle picker;
    private final RandomGenerator random;
    private final Backoff backoff;
    private final LongSupplier nanoTime;
    private final RouterEvents events;
    private final Function<Deployment, Duration> attemptDeadline;

    /**
     * @param attemptDeadline a deployment's own deadline for one attempt, before it is cut
     *                        to what is left of the request's total deadline
     */
    public Router(ModelRegistry models, RouterSettings settings, Cooldowns cooldowns, WeightedShuffle picker,
            RandomGenerator random, Backoff backoff, LongSupplier nanoTime, RouterEvents events,
            Function<Deployment, Duration> attemptDeadline) {
        this.models = models;
        this.settings = settings;
        this.cooldowns = cooldowns;
        this.picker = picker;
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
    public <T> Future<RouteOutcome<T>> route(String callId, ModelGroup group, CallerOverrides caller,
            Attempter<T> attempter, Delays delays, BooleanSupplier cancelled) {
        Duration total = caller.timeout().orElse(settings.timeout());
        long deadlineNanos = nanoTime.getAsLong() + total.toNanos();
        return new AttemptLoop<>(this, callId, caller, attempter, delays, cancelled, deadlineNanos).run(group);
    }

    ModelGroups groups() {
        return models.current();
    }

    RouterSettings settings() {
        return settings;
    }

    Cooldowns cooldowns() {
        return cooldowns;
    }

    WeightedShuffle picker() {
        return picker;
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

    RouterEvents events() {
        return events;
    }

    Duration attemptDeadline(Deployment deployment) {
        return attemptDeadline.apply(deployment);
    }
}
