package dev.sluice.router;

import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.router.RouteOutcome.FailedAt;
import dev.sluice.router.RouteOutcome.Tried;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/** What one request's {@link AttemptLoop} knows about one group it runs through. */
final class GroupState {
    final ModelGroup group;
    /** The name the group was reached by ({@link AttemptPlan#target}). */
    final String target;
    /** The deployments this request may be sent to: the group's, less those the tag filter left out. */
    final List<Deployment> candidates;
    final List<Tried> attempts = new ArrayList<>();
    /** Deployments that refused this request: never called again for it. */
    final Set<String> refused = new HashSet<>();
    private final Map<String, Integer> repeats = new HashMap<>();
    /** Deployments found with no room this minute when this request claimed its place. */
    final Set<String> full = new HashSet<>();
    /** Which untried siblings may stand in for one found full: any at first, then as the last failure allows. */
    Predicate<Deployment> eligible = d -> true;
    /** Set when no deployment could be called at all. */
    Failure refusedBeforeCalling;

    GroupState(ModelGroup group, String target, List<Deployment> candidates) {
        this.target = target;
        this.group = group;
        this.candidates = List.copyOf(candidates);
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

    /** The last failure of {@code d} in this request, if it has one. */
    Optional<Failure> lastFailureOf(Deployment d) {
        for (int i = attempts.size() - 1; i >= 0; i--) {
            if (attempts.get(i).deployment().id().equals(d.id())) {
                return attempts.get(i).failure();
            }
        }
        return Optional.empty();
    }

    int repeats(Deployment d) {
        return repeats.getOrDefault(d.id(), 0);
    }

    void repeated(Deployment d) {
        repeats.merge(d.id(), 1, Integer::sum);
    }

    /** The group ended without an answer: with its last attempt's failure, or the refusal before any call. */
    <T> GroupEnd<T> end() {
        if (attempts.isEmpty()) {
            return new GroupEnd<>(group.name(), null, 0, Optional.empty(), false,
                    new FailedAt(group.name(), Optional.empty(), refusedBeforeCalling));
        }
        Tried last = attempts.getLast();
        return new GroupEnd<>(group.name(), last.deployment(), retries(), Optional.empty(), false,
                new FailedAt(group.name(), Optional.of(last.deployment()), last.failure().orElseThrow()));
    }

    <T> GroupEnd<T> served(Deployment d, T answer) {
        return new GroupEnd<>(group.name(), d, retries(), Optional.of(answer), false, null);
    }

    <T> GroupEnd<T> cancelled(Deployment d) {
        return new GroupEnd<>(group.name(), d, retries(), Optional.empty(), true, null);
    }
}
