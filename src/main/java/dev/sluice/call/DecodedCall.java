package dev.sluice.call;

import dev.sluice.model.ModelRequest;

/**
 * A call whose body its entry API has read: what it asks, and how large its body was (for an
 * audio form, the size of its text fields only: estimates and token counts read that).
 */
record DecodedCall(AuthenticatedCall authenticated, ModelRequest request, int bodyBytes) implements CallStage {
    /** The same call asking {@code prepared} instead: what its entry API keeps between calls has joined it. */
    DecodedCall asking(ModelRequest prepared) {
        return new DecodedCall(authenticated, prepared, bodyBytes);
    }
}
