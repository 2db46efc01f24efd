package dev.sluice.call;

import dev.sluice.call.cache.CachePlan;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.ModelGroup;
import java.util.List;
import java.util.Optional;

/**
 * A call whose group is known: the group its model names, what the caller and its team ask of
 * the router, the guardrails the body names, the requests the caller gave its own fallback
 * groups, and what the response cache does for it (empty: nothing).
 */
record ResolvedCall(DecodedCall decoded, ModelGroup group, CallerOverrides overrides, List<String> guardrails,
        FallbackRequests fallbackRequests, Optional<CachePlan> cachePlan) implements CallStage {
    ResolvedCall {
        guardrails = List.copyOf(guardrails);
    }

    @Override
    public AuthenticatedCall authenticated() {
        return decoded.authenticated();
    }

    ModelRequest request() {
        return decoded.request();
    }
}
