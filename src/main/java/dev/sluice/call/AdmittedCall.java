package dev.sluice.call;

import dev.sluice.accounts.CallTicket;
import dev.sluice.model.ModelRequest;
import java.util.List;
import java.util.Optional;

/**
 * A call its caller may make: its model access, budgets and rate limits held, with the
 * ticket that must be finished however the call ends, and the call's tags
 * ({@link dev.sluice.accounts.CallTags}), for its spend row and for tag-based routing.
 */
record AdmittedCall(ResolvedCall resolved, CallTicket ticket, List<String> tags) implements CallStage {
    AdmittedCall {
        tags = List.copyOf(tags);
    }

    @Override
    public AuthenticatedCall authenticated() {
        return resolved.authenticated();
    }

    @Override
    public Optional<AdmittedCall> asAdmitted() {
        return Optional.of(this);
    }

    ModelRequest request() {
        return resolved.request();
    }

    String groupName() {
        return resolved.group().name();
    }
}
