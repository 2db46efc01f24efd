package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.signals.CooldownStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bench policy: decides, from one classified failure, whether a deployment stops getting
 * traffic and for how long, and answers whether a deployment is benched now.
 *
 * <h2>Design notes</h2>
 * A deployment is <em>routable</em>, <em>counting</em> (it has failures of some class in the
 * current {@link #FAILURE_WINDOW}) or <em>benched</em> (it has a bench end in the future).
 * A failure moves it from routable or counting to benched either at once (a 429, 401/403 or
 * 404 with no allowance configured for it) or when the failures of its class in the window
 * exceed the allowance; benching forgets its counts. A bench lapses by time alone: the first
 * {@link #benchEnd} at or after the end finds it routable again and announces
 * {@link RouterEvents#unbench} once. The one exception is a bench a failed health probe set
 * ({@link #benchUntil}, opt-in): a later passing probe {@link #lift}s it early, unless traffic
 * lengthened it meanwhile.
 *
 * <p>The knobs are LiteLLM's, resolved per failure from the most specific place that sets
 * them: the allowance from {@code model_info.allowed_fails_policy}, then the router's
 * {@code allowed_fails_policy}, then {@code allowed_fails}; the bench length from
 * {@code litellm_params.cooldown_time}, then {@code model_info.cooldown_time}, then the
 * router's {@code cooldown_time}, except that a 429's {@code Retry-After} sets it.
 *
 * <p>This class never benches a group's only deployment, but it does not stop every
 * deployment of a larger group from being benched: selection uses {@link #benchEnd} to try
 * the one whose bench ends first when none is routable.
 *
 * <p>State lives in the {@link CooldownStore}, so replicas sharing a store agree on benches;
 * this class holds only the set of deployments whose bench it has seen, to announce each
 * lapse once. All times come from the injected clock.
 */
public final class Cooldowns {

    /** How long a failure-count window lasts from the failure that opened it. */
    public static final Duration FAILURE_WINDOW = Duration.ofSeconds(60);

    /** The longest bench a {@code Retry-After} can ask for; longer values are cut to this. */
    public static final Duration LONGEST_RETRY_AFTER_BENCH = Duration.ofHours(1);

    /** The shortest bench a {@code Retry-After} gives, so {@code Retry-After: 0} still benches. */
    public static final Duration SHORTEST_RETRY_AFTER_BENCH = Duration.ofSeconds(1);

    private final LiveRouterSettings settings;
    private final CooldownStore store;
    private final Clock clock;
    private final RouterEvents events;
    private final Set<String> seenBenched = ConcurrentHashMap.newKeySet();

    /** Cooldowns under settings that never change. */
    public Cooldowns(RouterSettings router, CooldownStore store, Clock clock, RouterEvents events) {
        this(new LiveRouterSettings(router), store, clock, events);
    }

    /** Cooldowns under the settings in effect: each failure is judged by the settings current when it is recorded. */
    public Cooldowns(LiveRouterSettings settings, CooldownStore store, Clock clock, RouterEvents events) {
        this.settings = settings;
        this.store = store;
        this.clock = clock;
        this.events = events;
    }

    /**
     * Applies the bench rules to one failed attempt of {@code deployment} in {@code group}.
     * Returns when the deployment's bench ends if this failure benched it (or found it
     * benched and extended it), and empty when the deployment stays routable.
     */
    public Optional<Instant> recordFailure(ModelGroup group, Deployment deployment, Failure failure) {
        FailureClass kind = failure.kind();
        Instant now = clock.instant();
        RouterSettings router = settings.current();

        // The operator switched benching off for the whole router.
        if (router.cooldowns().disableCooldowns()) {
            return Optional.empty();
        }
        // With one deployment there is nowhere else to go; a bench would only refuse callers.
        if (group.deployments().size() < 2) {
            return Optional.empty();
        }
        // The backend answered and judged the request (400, context window, policy, guardrail): it is healthy.
        if (!kind.countsTowardBench()) {
            return Optional.empty();
        }
        Duration cooldown = cooldownTime(router, deployment);
        // A cooldown time of 0 is how a deployment, or the router, opts out of benching.
        if (cooldown.isZero()) {
            return Optional.empty();
        }
        OptionalInt policy = policyAllowance(router, deployment, kind);
        // The class says whether one failure is enough (see FailureClass.BenchRule); an allowance the operator set always counts.
        boolean atOnce = switch (kind.benchRule()) {
            case AT_ONCE -> policy.isEmpty();
            case AT_ONCE_UNLESS_COUNTED -> policy.isEmpty() && !allowedFailsWritten(router);
            case AFTER_ALLOWED_FAILS, NEVER -> false;
        };
        if (atOnce) {
            return bench(group, deployment, failure, now, cooldown);
        }
        int allowed = policy.orElse(router.cooldowns().allowedFails());
        int failures = store.countFailure(deployment.id(), kind, now, FAILURE_WINDOW, allowed,
                // Failures other replicas saw, learnt after the answer, put the shared total over the allowance.
                () -> bench(group, deployment, failure, clock.instant(), cooldown));
        // Within the allowance a few failures a minute are noise, not a broken deployment.
        if (failures <= allowed) {
            return Optional.empty();
        }
        return bench(group, deployment, failure, now, cooldown);
    }

    /** Whether the deployment is benched now. */
    public boolean isBenched(Deployment deployment) {
        return benchEnd(deployment).isPresent();
    }

    /** Whether the deployment has failures counting toward a bench in the current {@link #FAILURE_WINDOW}. */
    public boolean counting(Deployment deployment) {
        return store.counting(deployment.id(), clock.instant(), FAILURE_WINDOW);
    }

    /**
     * When the deployment's bench ends, if it is benched now. The first call that finds a
     * bench this instance has seen lapsed announces {@link RouterEvents#unbench}.
     */
    public Optional<Instant> benchEnd(Deployment deployment) {
        String id = deployment.id();
        Optional<Instant> until = store.benchedUntil(id, clock.instant());
        if (until.isPresent()) {
            // Remembered even when another replica set it, so its end is announced here too.
            seenBenched.add(id);
        } else if (seenBenched.remove(id)) {
            events.unbench(deployment.modelName(), id);
        }
        return until;
    }

    /**
     * Benches {@code deployment} until {@code until} because something besides a routed call
     * found it failing: a health probe. The same guards hold as for traffic (benching switched
     * off, a group's only deployment, a class that does not count toward a bench), but no
     * allowance is counted: the caller decided. Returns the bench end that holds (the store
     * keeps the later of two), or empty when the deployment was not benched.
     */
    public Optional<Instant> benchUntil(ModelGroup group, Deployment deployment, Failure failure, Instant until) {
        RouterSettings router = settings.current();
        if (router.cooldowns().disableCooldowns() || group.deployments().size() < 2 || !failure.kind().countsTowardBench()
                || cooldownTime(router, deployment).isZero()) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (store.benchedUntil(deployment.id(), now).isPresent()) {
            // Still benched from the last probe: pushed out, and not a new bench for the logs and metrics.
            store.bench(deployment.id(), until);
            return Optional.of(store.benchedUntil(deployment.id(), now).orElse(until));
        }
        return bench(group, deployment, failure.kind(), until, now);
    }

    /**
     * Lifts the deployment's bench now if it still ends at {@code end}, the end a
     * {@link #benchUntil} returned, and announces {@link RouterEvents#unbench}. A bench that
     * traffic lengthened since (a 429's Retry-After, say) ends at another instant and is left to
     * run its course. Returns whether a bench was lifted.
     */
    public boolean lift(Deployment deployment, Instant end) {
        Optional<Instant> current = store.benchedUntil(deployment.id(), clock.instant());
        if (current.isEmpty() || !current.get().equals(end)) {
            return false;
        }
        store.clear(deployment.id());
        if (seenBenched.remove(deployment.id())) {
            events.unbench(deployment.modelName(), deployment.id());
        }
        return true;
    }

    private Optional<Instant> bench(ModelGroup group, Deployment deployment, Failure failure, Instant now,
            Duration cooldown) {
        return bench(group, deployment, failure.kind(), now.plus(benchLength(failure, cooldown)), now);
    }

    private Optional<Instant> bench(ModelGroup group, Deployment deployment, FailureClass kind, Instant asked, Instant now) {
        store.bench(deployment.id(), asked);
        // The store keeps the later of two benches, so report the end that holds.
        Instant until = store.benchedUntil(deployment.id(), now).orElse(asked);
        seenBenched.add(deployment.id());
        events.bench(group.name(), deployment.id(), kind, until);
        return Optional.of(until);
    }

    /** A 429's Retry-After, kept between one second and an hour, sets its bench; otherwise the cooldown time. */
    private static Duration benchLength(Failure failure, Duration cooldown) {
        if (failure.kind() != FailureClass.RATE_LIMITED || failure.retryAfter().isEmpty()) {
            return cooldown;
        }
        Duration asked = failure.retryAfter().get();
        if (asked.compareTo(SHORTEST_RETRY_AFTER_BENCH) < 0) {
            return SHORTEST_RETRY_AFTER_BENCH;
        }
        return asked.compareTo(LONGEST_RETRY_AFTER_BENCH) > 0 ? LONGEST_RETRY_AFTER_BENCH : asked;
    }

    /** Whether the operator wrote {@code allowed_fails} (in the file or through the router settings API). */
    private static boolean allowedFailsWritten(RouterSettings router) {
        return !"default".equals(router.sources().getOrDefault("allowed_fails", "default"));
    }

    /** {@code litellm_params.cooldown_time}, else {@code model_info.cooldown_time}, else the router's. */
    private static Duration cooldownTime(RouterSettings router, Deployment deployment) {
        return deployment.params().attempts().cooldownTime()
                .or(() -> deployment.info().cooldownTime())
                .orElse(router.cooldowns().cooldownTime());
    }

    /** The allowance an {@code allowed_fails_policy} sets for the class: the deployment's, else the router's. */
    private static OptionalInt policyAllowance(RouterSettings router, Deployment deployment, FailureClass kind) {
        String key = kind.allowedFailsPolicyKey();
        if (key == null) {
            return OptionalInt.empty();
        }
        Integer allowed = deployment.info().allowedFailsPolicy().get(key);
        if (allowed == null) {
            allowed = router.cooldowns().allowedFailsPolicy().get(key);
        }
        return allowed == null ? OptionalInt.empty() : OptionalInt.of(allowed);
    }
}
