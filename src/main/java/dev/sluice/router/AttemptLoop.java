package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.RouteOutcome.GroupRun;
import dev.sluice.router.RouteOutcome.SkippedFallback;
import dev.sluice.router.RouteOutcome.Tried;
import dev.sluice.router.precall.Checked;
import dev.sluice.router.strategy.Pick;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.RoutingStrategy;
import dev.sluice.router.strategy.SimpleShuffleStrategy;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One request's way through its group and, if the group is exhausted, its fallbacks.
 *
 * <p>Design notes. Every decision after a failed attempt is read off the failure's
 * {@link FailureClass}, in {@link #afterFailure}, in this order:
 * <ol>
 *   <li>the failure is counted toward the deployment's bench ({@link Cooldowns} decides
 *       whether the class counts);
 *   <li>a guardrail refusal ends the request: it is about the request, not the backend;
 *   <li>the group's retry budget for the class ({@link NumRetries}) bounds retries and
 *       sibling failovers together;
 *   <li>an untried, unbenched sibling gets the request at once, if the class allows failing
 *       over (context-window refusals only to a larger window);
 *   <li>otherwise, unless the request was judged on its content (context window, content
 *       policy), a deployment this request tried whose every failure may repeat in place
 *       (transport, timeout, rate limited, server) is tried again, after a jittered backoff
 *       or its Retry-After, and only if the wait fits in what is left of the total deadline;
 *   <li>otherwise the group is exhausted, and its last failure is what it ended with.
 * </ol>
 * A deployment that refused the request (any class that may not repeat in place) is never
 * called again for it. Fallback groups each run this same loop; groups already tried are
 * skipped. Runs on the request's event loop; nothing here is shared.
 */
final class AttemptLoop<T> {
    private final Router router;
    /** The router settings this request took when it started: one set for all its decisions. */
    private final RouterSettings settings;
    private final String callId;
    private final CallerOverrides caller;
    private final RoutingStrategy strategy;
    private final RequestFacts facts;
    private final Attempter<T> attempter;
    private final Delays delays;
    private final BooleanSupplier cancelled;
    private final FallbackGate gate;
    private final long deadlineNanos;
    private final List<GroupRun> runs = new ArrayList<>();
    private final List<SkippedFallback> skipped = new ArrayList<>();
    private final Set<String> groupsTried = new HashSet<>();
    private int fallbacksTried;

    AttemptLoop(Router router, RouterSettings settings, String callId, CallerOverrides caller, RoutingStrategy strategy,
            RequestFacts facts, Attempter<T> attempter, Delays delays, BooleanSupplier cancelled, FallbackGate gate,
            long deadlineNanos) {
        this.router = router;
        this.settings = settings;
        this.callId = callId;
        this.caller = caller;
        this.strategy = strategy;
        this.facts = facts;
        this.attempter = attempter;
        this.delays = delays;
        this.cancelled = cancelled;
        this.gate = gate;
        this.deadlineNanos = deadlineNanos;
    }

    Future<RouteOutcome<T>> run(ModelGroup requested) {
        return runGroup(requested).compose(ended -> {
            if (ended.servedOrFinal()) {
                return Future.succeededFuture(outcome(ended, ended.failure));
            }
            List<String> targets = new FallbackPlanner(settings).targets(requested.name(), ended.failure.kind(), caller);
            return fallBack(requested, ended, targets, 0, ended);
        });
    }

    private Future<RouteOutcome<T>> fallBack(ModelGroup requested, GroupEnd primary, List<String> targets, int next, GroupEnd last) {
        for (int i = next; i < targets.size(); i++) {
            String target = targets.get(i);
            if (cancelled.getAsBoolean()) {
                return Future.succeededFuture(outcome(GroupEnd.cancelled(last), null));
            }
            if (groupsTried.contains(target)) {
                skip(requested, target, "already_tried");
                continue;
            }
            Optional<ModelGroup> group = router.groups().find(target);
            if (group.isEmpty()) {
                skip(requested, target, "unknown_group");
                continue;
            }
            if (fallbacksTried >= settings.maxFallbacks()) {
                skip(requested, target, "max_fallbacks");
                continue;
            }
            if (deadlineLeft().isNegative() || deadlineLeft().isZero()) {
                skip(requested, target, "deadline");
                continue;
            }
            Optional<String> refused = gate.refusal(group.get());
            if (refused.isPresent()) {
                skip(requested, target, refused.get());
                continue;
            }
            fallbacksTried++;
            router.events().fallback(callId, requested.name(), target, primary.failure);
            int after = i + 1;
            return runGroup(group.get()).compose(ended -> {
                if (ended.servedOrFinal()) {
                    // A guardrail refusal in the fallback group is the answer: the request itself was refused.
                    return Future.succeededFuture(outcome(ended, ended.served.isPresent() ? null
                            : ended.failure.kind() == FailureClass.GUARDRAIL ? ended.failure : primary.failure));
                }
                return fallBack(requested, primary, targets, after, ended);
            });
        }
        return Future.succeededFuture(outcome(last, primary.failure));
    }

    private void skip(ModelGroup from, String target, String reason) {
        skipped.add(new SkippedFallback(target, reason));
        router.events().skip(callId, from.name(), target, reason);
    }

    private Future<GroupEnd> runGroup(ModelGroup group) {
        groupsTried.add(group.name());
        GroupState state = new GroupState(group);
        runs.add(new GroupRun(group.name(), state.attempts));
        Choice first = firstPick(group);
        if (first.deployment() == null) {
            // Refused before any call: no deployment may take this request (window, capacity).
            state.refusedBeforeCalling = first.failure();
            router.events().attemptFailed(callId, group.name(), "-", first.failure());
            return Future.succeededFuture(state.end());
        }
        return attempt(state, first.deployment());
    }

    private Future<GroupEnd> attempt(GroupState state, Deployment deployment) {
        if (cancelled.getAsBoolean()) {
            return Future.succeededFuture(GroupEnd.cancelled(state, deployment));
        }
        if (!deadlineLeft().isPositive()) {
            return outOfTime(state, deployment);
        }
        return router.signals().claim(deployment, facts.promptTokens(), strategy.keepsWithinLimits())
                .compose(claimed -> claimed ? send(state, deployment) : noRoom(state, deployment));
    }

    /** The request's deadline ran out before an attempt on {@code deployment} could be sent. */
    private Future<GroupEnd> outOfTime(GroupState state, Deployment deployment) {
        if (state.attempts.isEmpty()) {
            // Only a deadline shorter than the time it took to get here: say so rather than call.
            state.attempts.add(new Tried(deployment, new Failure(FailureClass.TIMEOUT, 0, Buffer.buffer(), Optional.empty(),
                    "the request's timeout ran out before the first attempt")));
        }
        return Future.succeededFuture(state.end());
    }

    private Future<GroupEnd> send(GroupState state, Deployment deployment) {
        Duration left = deadlineLeft();
        if (!left.isPositive()) {
            return outOfTime(state, deployment); // the claim took what was left
        }
        Duration own = router.attemptDeadline(settings, deployment);
        Duration deadline = own.compareTo(left) < 0 ? own : left;
        router.events().attempt(callId, state.group.name(), deployment.id(), state.attempts.size());
        AttemptPlan plan = new AttemptPlan(state.group, deployment, deadline, left, state.attempts.size(), fallbacksTried, settings);
        long sent = router.nanoTime().getAsLong();
        return attempter.attempt(plan).compose(result -> {
            if (!cancelled.getAsBoolean()) {
                router.events().attemptEnded(callId, state.group.name(), deployment.id(),
                        result instanceof AttemptResult.Failed<T> failed ? Optional.of(failed.failure()) : Optional.empty(),
                        router.nanoTime().getAsLong() - sent);
            }
            return switch (result) {
                case AttemptResult.Served<T> served -> {
                    state.attempts.add(new Tried(deployment, null));
                    yield Future.succeededFuture(GroupEnd.served(state, deployment, served.answer()));
                }
                case AttemptResult.Failed<T> failed -> afterFailure(state, deployment, failed.failure());
            };
        });
    }

    /**
     * Other requests took {@code full}'s last place this minute between the strategy's pick and
     * the claim (on this replica or another): a sibling with room gets the request instead.
     * Nothing failed, so nothing counts toward a bench or the retry budget.
     */
    private Future<GroupEnd> noRoom(GroupState state, Deployment full) {
        state.full.add(full.id());
        List<Deployment> candidates = new ArrayList<>();
        for (Deployment d : state.group.deployments()) {
            if (!state.tried(d) && !state.full.contains(d.id()) && !router.cooldowns().isBenched(d) && state.eligible.test(d)) {
                candidates.add(d);
            }
        }
        Choice next = candidates.isEmpty() ? null : choose(candidates);
        if (next != null && next.deployment() != null) {
            return attempt(state, next.deployment());
        }
        if (state.attempts.isEmpty()) {
            // What stopped the request is the lack of room, whatever the checks said of the siblings left.
            state.refusedBeforeCalling = next != null && next.failure().kind() == FailureClass.RATE_LIMITED ? next.failure()
                    : new Failure(FailureClass.RATE_LIMITED, 0, Buffer.buffer(), Optional.of(untilNextMinute()),
                            "model group '" + state.group.name() + "' has no deployment with room for this request this "
                                    + "minute: deployment '" + full.id() + "' has used its rpm or tpm");
            router.events().attemptFailed(callId, state.group.name(), "-", state.refusedBeforeCalling);
        }
        return Future.succeededFuture(state.end());
    }

    private Future<GroupEnd> afterFailure(GroupState state, Deployment deployment, Failure failure) {
        if (cancelled.getAsBoolean()) {
            // The caller left: whatever the attempt ended with says nothing about the deployment.
            return Future.succeededFuture(GroupEnd.cancelled(state, deployment));
        }
        ModelGroup group = state.group;
        FailureClass kind = failure.kind();
        state.attempts.add(new Tried(deployment, failure));
        router.events().attemptFailed(callId, group.name(), deployment.id(), failure);
        router.cooldowns().recordFailure(group, deployment, failure);
        if (!kind.repeatsInPlace()) {
            state.refused.add(deployment.id());
        }
        if (kind == FailureClass.GUARDRAIL) {
            return Future.succeededFuture(state.end()); // never forwarded to anyone else
        }
        if (state.retries() >= NumRetries.resolve(settings, caller, group.name(), kind)) {
            return Future.succeededFuture(state.end()); // the retry budget for this class is spent
        }
        Optional<Deployment> sibling = untriedSibling(state, deployment, kind);
        if (sibling.isPresent()) {
            router.events().failover(callId, group.name(), deployment.id(), failure);
            return attempt(state, sibling.get());
        }
        if (!kind.repeatsInPlace() && !kind.failsOverToSibling()) {
            return Future.succeededFuture(state.end()); // judged on its content: no other deployment is asked again
        }
        Optional<Deployment> again = repeatable(state, deployment, failure);
        if (again.isEmpty()) {
            return Future.succeededFuture(state.end()); // nothing this request tried may be repeated
        }
        Failure last = again.get().id().equals(deployment.id()) ? failure : state.lastFailureOf(again.get());
        Duration wait = router.backoff().delay(state.repeats(again.get()), last.retryAfter(), router.random());
        if (wait.compareTo(deadlineLeft()) >= 0) {
            return Future.succeededFuture(state.end()); // the wait alone would outlast the total deadline
        }
        state.repeated(again.get());
        router.events().retry(callId, group.name(), again.get().id(), last, wait.toMillis());
        return delays.after(wait).compose(v -> attempt(state, again.get()));
    }

    /** A healthy deployment of the group this request has not tried, if the class allows one. */
    private Optional<Deployment> untriedSibling(GroupState state, Deployment failed, FailureClass kind) {
        if (!kind.failsOverToSibling() && !kind.failsOverOnlyToLargerWindow()) {
            state.eligible = d -> false;
            return Optional.empty();
        }
        // A sibling found full when claimed is replaced by one the same rule allows.
        state.eligible = kind.failsOverOnlyToLargerWindow() ? d -> largerWindow(d, failed) : d -> true;
        List<Deployment> candidates = new ArrayList<>();
        for (Deployment d : state.group.deployments()) {
            if (state.tried(d) || router.cooldowns().isBenched(d)) {
                continue;
            }
            if (kind.failsOverOnlyToLargerWindow() && !largerWindow(d, failed)) {
                continue;
            }
            candidates.add(d);
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.ofNullable(choose(candidates).deployment());
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
    private Optional<Deployment> repeatable(GroupState state, Deployment failed, Failure failure) {
        List<Deployment> healthy = new ArrayList<>();
        List<Deployment> benched = new ArrayList<>();
        for (Deployment d : state.group.deployments()) {
            if (!state.tried(d) || state.refused.contains(d.id())) {
                continue;
            }
            Failure last = d.id().equals(failed.id()) ? failure : state.lastFailureOf(d);
            if (last == null || asksTooLong(last)) {
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

    /** A healthy deployment; when every one is benched, the one whose bench ends first. */
    private Choice firstPick(ModelGroup group) {
        List<Deployment> healthy = new ArrayList<>();
        for (Deployment d : group.deployments()) {
            if (!router.cooldowns().isBenched(d)) {
                healthy.add(d);
            }
        }
        if (!healthy.isEmpty()) {
            return choose(healthy);
        }
        Deployment soonest = group.deployments().stream()
                .min(Comparator.comparing(d -> router.cooldowns().benchEnd(d).orElse(java.time.Instant.MIN)))
                .orElseThrow();
        return choose(List.of(soonest));
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
            case Pick.NoCapacity none -> new Choice(null, new Failure(FailureClass.RATE_LIMITED, 0, Buffer.buffer(),
                    Optional.of(untilNextMinute()), none.reason()));
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

    /** Usage windows are calendar minutes: capacity comes back when the next one starts. */
    private Duration untilNextMinute() {
        java.time.Instant now = router.clock().instant();
        java.time.Instant next = now.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        return Duration.between(now, next);
    }

    /** A deployment to call, or the failure that stops the group before any call. */
    private record Choice(Deployment deployment, Failure failure) {}

    private Duration deadlineLeft() {
        return Duration.ofNanos(deadlineNanos - router.nanoTime().getAsLong());
    }

    private RouteOutcome<T> outcome(GroupEnd last, Failure answerWith) {
        return new RouteOutcome<>(last.served, last.cancelled, last.group, last.deployment, last.retries, fallbacksTried,
                Optional.ofNullable(last.served.isPresent() || last.cancelled ? null : answerWith),
                List.copyOf(runs), List.copyOf(skipped));
    }

    /** What the loop knows about one group within this request. */
    private final class GroupState {
        final ModelGroup group;
        final List<Tried> attempts = new ArrayList<>();
        final Set<String> refused = new HashSet<>();
        final Map<String, Integer> repeats = new HashMap<>();
        /** Deployments found with no room this minute when this request claimed its place. */
        final Set<String> full = new HashSet<>();
        /** Which untried siblings may stand in for one found full: any at first, then as the last failure allows. */
        java.util.function.Predicate<Deployment> eligible = d -> true;
        /** Set when no deployment could be called at all. */
        Failure refusedBeforeCalling;

        GroupState(ModelGroup group) {
            this.group = group;
        }

        int retries() {
            return Math.max(0, attempts.size() - 1);
        }

        boolean tried(Deployment d) {
            for (Tried t : attempts) {
                if (t.deployment().id().equals(d.id())) {
                    return true;
                }
            }
            return false;
        }

        /** The last failure of {@code d} in this request, or null if it has none. */
        Failure lastFailureOf(Deployment d) {
            for (int i = attempts.size() - 1; i >= 0; i--) {
                if (attempts.get(i).deployment().id().equals(d.id())) {
                    return attempts.get(i).failure();
                }
            }
            return null;
        }

        int repeats(Deployment d) {
            return repeats.getOrDefault(d.id(), 0);
        }

        void repeated(Deployment d) {
            repeats.merge(d.id(), 1, Integer::sum);
        }

        GroupEnd end() {
            if (attempts.isEmpty()) {
                return new GroupEnd<T>(group.name(), null, 0, Optional.empty(), false, refusedBeforeCalling);
            }
            Tried last = attempts.getLast();
            return new GroupEnd<T>(group.name(), last.deployment(), retries(), Optional.empty(), false, last.failure());
        }
    }

    /** How one group's run ended. */
    private record GroupEnd<T>(String group, Deployment deployment, int retries, Optional<T> served, boolean cancelled,
            Failure failure) {

        static <T> GroupEnd<T> served(AttemptLoop<T>.GroupState state, Deployment d, T answer) {
            return new GroupEnd<>(state.group.name(), d, state.retries(), Optional.of(answer), false, null);
        }

        static <T> GroupEnd<T> cancelled(AttemptLoop<T>.GroupState state, Deployment d) {
            return new GroupEnd<>(state.group.name(), d, state.retries(), Optional.empty(), true, null);
        }

        static <T> GroupEnd<T> cancelled(GroupEnd<T> last) {
            return new GroupEnd<>(last.group, last.deployment, last.retries, Optional.empty(), true, null);
        }

        /** Served, cancelled, or refused by a guardrail: nothing further is tried. */
        boolean servedOrFinal() {
            return served.isPresent() || cancelled || failure.kind() == FailureClass.GUARDRAIL;
        }
    }
}
