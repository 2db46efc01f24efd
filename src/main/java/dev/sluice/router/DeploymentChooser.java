package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.precall.Checked;
import dev.sluice.router.strategy.Pick;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.RoutingStrategy;
import dev.sluice.router.strategy.SimpleShuffleStrategy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which deployment of a group one request goes to next: the first pick, an untried sibling
 * after a failure, or one to try again in place. Candidates are the deployments the tag filter
 * left the request ({@link GroupState#candidates}), narrowed by benches and by what the last
 * failure's class allows, then by the pre-call checks, then the request's strategy picks.
 */
final class DeploymentChooser {
    private final Router router;
    private final RoutingStrategy strategy;
    private final RequestFacts facts;
    private final CallerOverrides caller;

    DeploymentChooser(Router router, RoutingStrategy strategy, RequestFacts facts, CallerOverrides caller) {
        this.router = router;
        this.strategy = strategy;
        this.facts = facts;
        this.caller = caller;
    }

    /** A deployment to call, or the failure that stops the group before any call. */
    record Choice(Deployment deployment, Failure failure) {}

    /**
     * A healthy candidate; when every one is benched, the one whose bench ends first. One whose
     * credentials name unset environment variables is picked only when no other healthy one is
     * left: its call could only fail, and would spend one of the request's retries.
     */
    Choice first(GroupState state) {
        List<Deployment> healthy = new ArrayList<>();
        int uncallable = 0;
        for (Deployment d : state.candidates) {
            if (!router.cooldowns().isBenched(d)) {
                healthy.add(d);
                if (!d.params().endpoint().unsetVariables().isEmpty()) {
                    uncallable++;
                }
            }
        }
        if (uncallable > 0 && uncallable < healthy.size()) {
            // Almost never: only a config naming unset variables pays for a second list.
            return choose(healthy.stream().filter(d -> d.params().endpoint().unsetVariables().isEmpty()).toList());
        }
        if (!healthy.isEmpty()) {
            return choose(healthy);
        }
        Deployment soonest = state.candidates.stream()
                .min(Comparator.comparing(d -> router.cooldowns().benchEnd(d).orElse(Instant.MIN)))
                .orElseThrow();
        return choose(List.of(soonest));
    }

    /** A healthy deployment of the group this request has not tried, if the class allows one. */
    Optional<Deployment> untriedSibling(GroupState state, Deployment failed, FailureClass kind) {
        switch (kind.failover()) {
            case NONE -> {
                state.eligible = d -> false;
                return Optional.empty();
            }
            // A sibling found full when claimed is replaced by one the same rule allows.
            case LARGER_WINDOW_ONLY -> state.eligible = d -> largerWindow(d, failed);
            case ANY_UNTRIED -> state.eligible = d -> true;
        }
        List<Deployment> candidates = new ArrayList<>();
        for (Deployment d : state.candidates) {
            if (!state.tried(d) && !router.cooldowns().isBenched(d) && state.eligible.test(d)) {
                candidates.add(d);
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.ofNullable(choose(candidates).deployment());
    }

    /** A sibling with room, when {@code full}'s last place this minute was taken: any the last failure allows. */
    Optional<Choice> withRoom(GroupState state) {
        List<Deployment> candidates = new ArrayList<>();
        for (Deployment d : state.candidates) {
            if (!state.tried(d) && !state.full.contains(d.id()) && !router.cooldowns().isBenched(d) && state.eligible.test(d)) {
                candidates.add(d);
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.of(choose(candidates));
    }

    private static boolean largerWindow(Deployment candidate, Deployment refused) {
        OptionalInt theirs = candidate.info().maxInputTokens();
        OptionalInt ours = refused.info().maxInputTokens();
        return theirs.isPresent() && ours.isPresent() && theirs.getAsInt() > ours.getAsInt();
    }

    /**
     * The deployment to try again once no untried sibling is left: one this request has tried
     * whose every failure may repeat in place (so never one that refused), preferring those not
     * benched; the one that just failed only if its own failure may repeat. A deployment whose
     * {@code Retry-After} asks for more than the backoff honours is left out: waiting less than
     * it asked would only fail again.
     */
    Optional<Deployment> repeatable(GroupState state, Deployment failed, Failure failure) {
        List<Deployment> healthy = new ArrayList<>();
        List<Deployment> benched = new ArrayList<>();
        for (Deployment d : state.candidates) {
            if (!state.tried(d) || state.refused.contains(d.id())) {
                continue;
            }
            Optional<Failure> last = d.id().equals(failed.id()) ? Optional.of(failure) : state.lastFailureOf(d);
            if (last.isEmpty() || asksTooLong(last.get())) {
                continue;
            }
            (router.cooldowns().isBenched(d) ? benched : healthy).add(d);
        }
        if (!healthy.isEmpty()) {
            Deployment chosen = choose(healthy).deployment();
            if (chosen != null) {
                return Optional.of(chosen);
            }
        }
        return benched.stream().filter(d -> d.id().equals(failed.id())).findFirst()
                .or(() -> benched.stream().findFirst());
    }

    private boolean asksTooLong(Failure failure) {
        return failure.retryAfter().filter(asked -> asked.compareTo(router.backoff().maxRetryAfter()) > 0).isPresent();
    }

    /**
     * Narrows the candidates by the pre-call checks (context window, {@code order}, cache
     * pins), then lets the request's strategy pick. Either may find that none may take the
     * request: a context-window refusal, or no capacity left this minute.
     */
    private Choice choose(List<Deployment> candidates) {
        Checked checked = router.preCallChecks().check(candidates, facts);
        if (checked.kept().isEmpty()) {
            return new Choice(null, checked.failure().orElseThrow());
        }
        List<Deployment> kept = checked.kept();
        if (!caller.deploymentWeights().isEmpty()) {
            if (strategy instanceof SimpleShuffleStrategy) {
                return new Choice(new WeightedShuffle(router.random()).pick(kept, caller.deploymentWeights()), null);
            }
            kept = weighted(kept);
        }
        return switch (strategy.pick(kept, facts)) {
            case Pick.Chosen chosen -> new Choice(chosen.deployment(), null);
            case Pick.NoCapacity none -> new Choice(null, noRoom(none.reason()));
        };
    }

    /**
     * For a strategy other than simple-shuffle, the caller's weights narrow the candidates to
     * those it weighs above 0, when any is; the strategy then picks among them.
     */
    private List<Deployment> weighted(List<Deployment> candidates) {
        List<Deployment> preferred = candidates.stream()
                .filter(d -> caller.deploymentWeights().getOrDefault(d.id(), 0.0) > 0)
                .toList();
        return preferred.isEmpty() ? candidates : preferred;
    }

    /** No deployment has room this minute: a 429 of Sluice's own, until the next minute starts. */
    Failure noRoom(String reason) {
        return new Failure(FailureClass.RATE_LIMITED, 0, io.vertx.core.buffer.Buffer.buffer(), Optional.of(untilNextMinute()),
                reason);
    }

    /** Usage windows are calendar minutes: capacity comes back when the next one starts. */
    private Duration untilNextMinute() {
        Instant now = router.clock().instant();
        Instant next = now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        return Duration.between(now, next);
    }
}
