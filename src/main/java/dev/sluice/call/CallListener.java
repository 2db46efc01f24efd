package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.stream.StreamTranslator;
import java.util.List;
import java.util.function.Supplier;

/**
 * What happens to one model call, told as it happens (as OkHttp's {@code EventListener} tells a
 * call's): the pipeline and the attempts fire each event at one place, the call's
 * {@link CallListeners}, which tells each of the call's observers: its routed headers, its
 * charge, its place in the recent calls, its metrics and its recording for the callbacks.
 *
 * <p>Events come on the call's event loop, in the order below for a call that runs its course;
 * a refused or abandoned call skips the ones it never reached. Every method does nothing by
 * default, so a listener overrides only what it watches, and {@link #NONE} watches nothing.
 * A listener records; what goes back onto the answer (headers, a cost) is read off it by the
 * answer's writer.
 */
interface CallListener {
    /** The listener that watches nothing: what stands in for an observer that is off. */
    CallListener NONE = new CallListener() {};

    /** The caller is known (authenticated): a master key, a virtual key, or nobody. */
    default void callerKnown(Caller caller) {}

    /**
     * The body was decoded into the request its entry API read; told again when what the entry
     * API keeps between calls joins it.
     */
    default void decoded(DecodedCall call) {}

    /** The group the request names is resolved, with what the caller and its team ask of the router. */
    default void resolved(ResolvedCall call) {}

    /** The call was admitted: it holds a ticket, finished however it ends. */
    default void admitted(AdmittedCall call) {}

    /** The response cache held the call's answer: it is answered with {@code hit}, and ends as {@code end}. */
    default void answeredFromCache(CachedAnswer hit, CallEnd end) {}

    /** Time went waiting for an upstream (or a retry's backoff): not the gateway's own overhead. */
    default void upstreamWaited(long nanos) {}

    /** An attempt laid out its request upstream, leaving out {@code droppedParams} of the caller's. */
    default void attemptLaidOut(List<String> droppedParams) {}

    /**
     * A stream attempt began: a listener may watch its events by wrapping {@code translator}.
     * Returns the translator the attempt uses, {@code translator} itself when none is watched.
     */
    default StreamTranslator streamStarted(StreamTranslator translator) {
        return translator;
    }

    /** A stream of {@code plan}'s deployment is about to send its head: it serves the call. */
    default void streamCommitted(AttemptPlan plan) {}

    /**
     * {@code deployment} answered whole (a stream too, when it is read whole before it is
     * written); {@code model} reads the model its answer names, null when it names none (read
     * only by a listener that needs it).
     */
    default void deploymentAnswered(Deployment deployment, Supplier<String> model) {}

    /** A guardrail refused what {@code deployment} of {@code group} answered, which used {@code usage}. */
    default void answerRefused(String group, Deployment deployment, TokenUsage usage) {}

    /** Routing ended (served, failed, or cancelled), before anything of it is written. */
    default void routed(RouteOutcome<Answer> outcome) {}

    /** A whole answer is about to be written to the caller. */
    default void wholeAnswerWriting(Answer.Whole whole) {}

    /** The call's accounting ended as {@code end}, costing {@code cost} (-1: it had already ended). */
    default void settled(CallEnd end, double cost) {}

    /**
     * The gateway stopped, its drain deadline ran out, and the answer's head had gone out: the
     * call counts as ended with {@code status}, whatever its head said.
     */
    default void cutAfterHead(int status) {}

    /** The answer ended with {@code status}, or the caller left first ({@link CallEnd#CLIENT_CLOSED}). */
    default void ended(int status) {}
}
