package dev.sluice.call;

import dev.sluice.accounts.Caller;

/** A call whose caller is known: its body is read, and decoded, next. */
record AuthenticatedCall(ModelCall call, Caller caller) implements CallStage {
    @Override
    public AuthenticatedCall authenticated() {
        return this;
    }
}
