package dev.sluice.call;

import dev.sluice.accounts.Caller;
import java.util.Optional;

/**
 * How far a model call has got, as the value its last stage returned: each stage of
 * {@link ModelCallPipeline} takes the value of the stage before it and returns its own, so a
 * stage reads only what is already there, and nothing of a call is ever read before its stage
 * has run. In order: {@link AuthenticatedCall} (who calls), {@link DecodedCall} (what it asks),
 * {@link ResolvedCall} (the group that answers it), {@link AdmittedCall} (its ticket), and
 * {@link RoutedCall} (the call as routing takes it); what routing came to is then answered.
 */
sealed interface CallStage permits AuthenticatedCall, DecodedCall, ResolvedCall, AdmittedCall, RoutedCall {
    /** The first stage, which every later one carries: the call and who calls. */
    AuthenticatedCall authenticated();

    /** The call as it was opened: its request, response, events and state. */
    default ModelCall call() {
        return authenticated().call();
    }

    /** Who calls: a master key, a virtual key, or nobody when none is needed. */
    default Caller caller() {
        return authenticated().caller();
    }

    /** The call as admitted, once it is: its ticket must then be finished however the call ends. */
    default Optional<AdmittedCall> asAdmitted() {
        return Optional.empty();
    }
}
