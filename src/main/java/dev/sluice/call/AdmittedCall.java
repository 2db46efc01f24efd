package dev.sluice.call;

import dev.sluice.accounts.CallTicket;
import dev.sluice.model.ModelRequest;
import java.util.List;
import java.util.Optional;

/**
 * A call its caller may make: its model access, budgets and rate limits held, with the
 * ticket that must be finished however the call ends.
 */
record AdmittedCall(ResolvedCall resolved, CallTicket ticket) implements CallStage {

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

    /** The call's tags ({@link dev.sluice.accounts.CallTags}), as its ticket keeps them: for its spend row and for tag-based routing. */
    List<String> tags() {
        return ticket.tags();
    }

    String groupName() {
        return resolved.group().name();
    }
}
