package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.config.RouterSettings;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.router.DeploymentChooser.Choice;
import dev.sluice.router.RouteOutcome.FailedAt;
import dev.sluice.router.RouteOutcome.GroupRun;
import dev.sluice.router.RouteOutcome.SkippedFallback;
import dev.sluice.router.RouteOutcome.Tried;
import dev.sluice.router.precall.TagFilter;
import dev.sluice.router.strategy.RoutingStrategy;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One request's way through its group and, if the group is exhausted, its fallbacks.
 *
 * <p>Design notes. Every decision after a failed attempt is read off the failure's
 * {@link FailureClass}, in {@link #afterFailure}, in this order:
 * <ol>
 *   <li>the failure is counted toward the deployment's bench ({@link Cooldowns} reads the
 *       class's bench rule);
 *   <li>a failure whose class ends the request (a guardrail's refusal) ends it: it is about
 *       the request, not the backend;
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
 * skipped, and so are those the tag filter leaves no deployment of. Within a group, only the
 * deployments the tag filter kept ({@link TagFilter}) are ever candidates. Runs on the
 * request's event loop; nothing here is shared.
 */
final class AttemptLoop<T> {
    private final Router router;
    /** The router settings this request took when it started: one set for all its decisions. */
    private final RouterSettings settings;
    private final RouteRequest<T> request;
    private final RoutingStrategy strategy;
    private final DeploymentChooser chooser;
    private final TagFilter tags;
    /** The request's total deadline, from which each attempt's own is cut. */
    private final Deadline deadline;
    private final List<GroupRun> runs = new ArrayList<>();
    private final List<SkippedFallback> skipped = new ArrayList<>();
    private final Set<String> groupsTried = new HashSet<>();
    private int fallbacksTried;

    AttemptLoop(Router router, RouterSettings settings, RouteRequest<T> request, RoutingStrategy strategy, Deadline deadline) {
        this.router = router;
        this.settings = settings;
        this.request = request;
        this.strategy = strategy;
        this.chooser = new DeploymentChooser(router, strategy, request.facts(), request.overrides());
        this.tags = TagFilter.of(settings);
        this.deadline = deadline;
    }

    Future<RouteOutcome<T>> run() {
        ModelGroup requested = request.group();
        return runGroup(requested, requested.name()).compose(ended -> {
            if (ended.servedOrFinal()) {
                return Future.succeededFuture(outcome(ended, ended.failure()));
            }
            List<String> targets = new FallbackPlanner(settings).targets(requested.name(), ended.failure().failure().kind(),
                    request.overrides());
            return fallBack(ended, targets, 0, ended);
        });
    }

    private Future<RouteOutcome<T>> fallBack(GroupEnd<T> primary, List<String> targets, int next, GroupEnd<T> last) {
        for (int i = next; i < targets.size(); i++) {
            String target = targets.get(i);
            if (request.cancelled().getAsBoolean()) {
                return Future.succeededFuture(outcome(last.asCancelled(), null));
            }
            Optional<SkipReason> skip = skipReason(target);
            if (skip.isPresent()) {
                skipped.add(new SkippedFallback(target, skip.get()));
                router.events().skip(request.callId(), request.group().name(), target, skip.get());
                continue;
            }
            fallbacksTried++;
            router.events().fallback(request.callId(), request.group().name(), target, primary.failure().failure());
            int after = i + 1;
            return runGroup(fallbackGroup(target).orElseThrow(), target).compose(ended -> {
                if (ended.servedOrFinal()) {
                    // A failure that ends the request in the fallback group (a guardrail's refusal) is the answer.
                    return Future.succeededFuture(outcome(ended, ended.served().isPresent() || ended.cancelled() ? null
                            : ended.failure().failure().kind().endsRequest() ? ended.failure() : primary.failure()));
                }
                return fallBack(primary, targets, after, ended);
            });
        }
        return Future.succeededFuture(outcome(last, primary.failure()));
    }

    /** Why a fallback target is not tried, checked in this order; empty when it is tried. */
    private Optional<SkipReason> skipReason(String target) {
        if (groupsTried.contains(target)) {
            return Optional.of(SkipReason.ALREADY_TRIED);
        }
        Optional<ModelGroup> group = fallbackGroup(target);
        if (group.isEmpty()) {
            return Optional.of(SkipReason.UNKNOWN_GROUP);
        }
        if (fallbacksTried >= settings.fallbacks().maxFallbacks()) {
            return Optional.of(SkipReason.MAX_FALLBACKS);
        }
        if (deadline.passed()) {
            return Optional.of(SkipReason.DEADLINE);
        }
        Optional<SkipReason> refused = request.gate().refusal(target, group.get());
        if (refused.isPresent()) {
            return refused;
        }
        return tagged(group.get()).refusal().isPresent() ? Optional.of(SkipReason.NO_TAG_MATCH) : Optional.empty();
    }

    private TagFilter.Tagged tagged(ModelGroup group) {
        return tags.apply(group.name(), group.deployments(), request.tags());
    }

    /**
     * The group a fallback named {@code target} reaches, found as a request's model is: through
     * {@code model_group_alias}, then the group of that name, then a wildcard group serving it.
     */
    private Optional<ModelGroup> fallbackGroup(String target) {
        return router.groups().find(GroupAliases.target(settings.routing().modelGroupAlias(), target));
    }

    private Future<GroupEnd<T>> runGroup(ModelGroup group, String target) {
        groupsTried.add(group.name());
        TagFilter.Tagged tagged = tagged(group);
        GroupState state = new GroupState(group, target, tagged.kept());
        runs.add(new GroupRun(group.name(), state.attempts));
        Choice first = tagged.refusal().isPresent() ? new Choice(null, tagged.refusal().get()) : chooser.first(state);
        if (first.deployment() == null) {
            // Refused before any call: no deployment may take this request (tags, window, capacity).
            state.refusedBeforeCalling = first.failure();
            router.events().attemptFailed(request.callId(), group.name(), "-", first.failure());
            return Future.succeededFuture(state.end());
        }
        return attempt(state, first.deployment());
    }

    private Future<GroupEnd<T>> attempt(GroupState state, Deployment deployment) {
        if (request.cancelled().getAsBoolean()) {
            return Future.succeededFuture(state.cancelled(deployment));
        }
        if (deadline.passed()) {
            return outOfTime(state, deployment);
        }
        return router.signals().claim(deployment, request.facts().promptTokens(), strategy.keepsWithinLimits())
                .compose(claimed -> claimed ? send(state, deployment) : noRoom(state, deployment));
    }

    /** The request's deadline ran out before an attempt on {@code deployment} could be sent. */
    private Future<GroupEnd<T>> outOfTime(GroupState state, Deployment deployment) {
        if (state.attempts.isEmpty()) {
            // Only a deadline shorter than the time it took to get here: say so rather than call.
            state.attempts.add(Tried.failed(deployment,
                    Failure.of(FailureClass.TIMEOUT, "the request's timeout ran out before the first attempt")));
        }
        return Future.succeededFuture(state.end());
    }

    private Future<GroupEnd<T>> send(GroupState state, Deployment deployment) {
        Deadline.Attempt allowed = deadline.attempt(deployment);
        if (!allowed.totalLeft().isPositive()) {
            return outOfTime(state, deployment); // the claim took what was left
        }
        router.events().attempt(request.callId(), state.group.name(), deployment.id(), state.attempts.size());
        AttemptPlan plan = new AttemptPlan(state.group, state.target, deployment, allowed, state.attempts.size(), fallbacksTried, settings);
        long sent = router.nanoTime().getAsLong();
        return request.attempter().attempt(plan).compose(result -> {
            if (!request.cancelled().getAsBoolean()) {
                router.events().attemptEnded(request.callId(), state.group.name(), deployment.id(),
                        result instanceof AttemptResult.Failed<T> failed ? Optional.of(failed.failure()) : Optional.empty(),
                        router.nanoTime().getAsLong() - sent);
            }
            return switch (result) {
                case AttemptResult.Served<T> served -> {
                    state.attempts.add(Tried.served(deployment));
                    yield Future.succeededFuture(state.served(deployment, served.answer()));
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
    private Future<GroupEnd<T>> noRoom(GroupState state, Deployment full) {
        state.full.add(full.id());
        Optional<Choice> next = chooser.withRoom(state);
        if (next.isPresent() && next.get().deployment() != null) {
            return attempt(state, next.get().deployment());
        }
        if (state.attempts.isEmpty()) {
            // What stopped the request is the lack of room, whatever the checks said of the siblings left.
            state.refusedBeforeCalling = next.filter(n -> n.failure().kind() == FailureClass.RATE_LIMITED).map(Choice::failure)
                    .orElseGet(() -> chooser.noRoom("model group '" + state.group.name() + "' has no deployment with room for "
                            + "this request this minute: deployment '" + full.id() + "' has used its rpm or tpm"));
            router.events().attemptFailed(request.callId(), state.group.name(), "-", state.refusedBeforeCalling);
        }
        return Future.succeededFuture(state.end());
    }

    private Future<GroupEnd<T>> afterFailure(GroupState state, Deployment deployment, Failure failure) {
        if (request.cancelled().getAsBoolean()) {
            // The caller left: whatever the attempt ended with says nothing about the deployment.
            return Future.succeededFuture(state.cancelled(deployment));
        }
        ModelGroup group = state.group;
        FailureClass kind = failure.kind();
        state.attempts.add(Tried.failed(deployment, failure));
        router.events().attemptFailed(request.callId(), group.name(), deployment, failure);
        router.cooldowns().recordFailure(group, deployment, failure);
        if (!kind.repeatsInPlace()) {
            state.refused.add(deployment.id());
        }
        if (kind.endsRequest()) {
            return Future.succeededFuture(state.end()); // never forwarded to anyone else
        }
        if (state.retries() >= NumRetries.resolve(settings, request.overrides(), group.name(), kind)) {
            return Future.succeededFuture(state.end()); // the retry budget for this class is spent
        }
        Optional<Deployment> sibling = chooser.untriedSibling(state, deployment, kind);
        if (sibling.isPresent()) {
            router.events().failover(request.callId(), group.name(), deployment.id(), failure);
            return attempt(state, sibling.get());
        }
        if (!kind.repeatsInPlace() && !kind.failsOverToSibling()) {
            return Future.succeededFuture(state.end()); // judged on its content: no other deployment is asked again
        }
        Optional<Deployment> again = chooser.repeatable(state, deployment, failure);
        if (again.isEmpty()) {
            return Future.succeededFuture(state.end()); // nothing this request tried may be repeated
        }
        Failure last = again.get().id().equals(deployment.id()) ? failure : state.lastFailureOf(again.get()).orElseThrow();
        Duration wait = router.backoff().delay(state.repeats(again.get()), last.retryAfter(), router.random());
        if (wait.compareTo(deadline.left()) >= 0) {
            return Future.succeededFuture(state.end()); // the wait alone would outlast the total deadline
        }
        state.repeated(again.get());
        router.events().retry(request.callId(), group.name(), again.get().id(), last, wait.toMillis());
        return request.delays().after(wait).compose(v -> attempt(state, again.get()));
    }

    private RouteOutcome<T> outcome(GroupEnd<T> last, FailedAt answerWith) {
        return new RouteOutcome<>(last.served(), last.cancelled(), last.group(), last.deployment(), last.retries(),
                fallbacksTried, Optional.ofNullable(last.served().isPresent() || last.cancelled() ? null : answerWith),
                List.copyOf(runs), List.copyOf(skipped));
    }
}
