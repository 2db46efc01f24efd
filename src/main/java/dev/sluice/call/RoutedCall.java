package dev.sluice.call;

import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.vendors.entry.AnswerEncoding;
import java.util.List;
import java.util.Optional;

/**
 * An admitted call as routing takes it: the cache keys its serving deployment pins, what its
 * request and answers use ({@code tokens}, which hold what routing read of the request), its
 * {@code charge} (which hears the call's events from here on), and how its answer is written
 * in the caller's dialect ({@code answers}).
 * Every attempt ({@link DeploymentCall}) reads it; nothing in it changes.
 */
record RoutedCall(AdmittedCall admitted, CacheKeys cacheKeys, CallTokens tokens, CallCharge charge, AnswerEncoding answers) implements CallStage {
    @Override
    public AuthenticatedCall authenticated() {
        return admitted.authenticated();
    }

    @Override
    public Optional<AdmittedCall> asAdmitted() {
        return Optional.of(admitted);
    }

    /** What routing reads of the request: its prompt's tokens, among others. */
    RequestFacts facts() {
        return tokens.facts();
    }

    ResolvedCall resolved() {
        return admitted.resolved();
    }

    /** The request the caller sent, as its entry API read it. */
    ModelRequest request() {
        return admitted.request();
    }

    /** The request an attempt sends: a fallback group's own when the caller gave it one, else the call's. */
    ModelRequest requestFor(AttemptPlan plan) {
        return plan.fallbacksTried() > 0 ? resolved().fallbackRequests().forGroup(plan.target(), request()) : request();
    }

    List<String> guardrails() {
        return resolved().guardrails();
    }
}
