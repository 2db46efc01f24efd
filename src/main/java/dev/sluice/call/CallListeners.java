package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.stream.StreamTranslator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one place a call's events are fired: tells each of its listeners, in the order they
 * joined. A listener that can only exist once the call has got so far (its charge, once it
 * is admitted and counted) joins then, and hears the events from there on. One per call, on
 * its event loop.
 */
final class CallListeners implements CallListener {
    private final List<CallListener> listeners = new ArrayList<>(6);

    CallListeners(CallListener... listeners) {
        this.listeners.addAll(List.of(listeners));
    }

    /** {@code listener} hears the call's events from now on; {@link CallListener#NONE} is not kept, as it hears nothing. */
    void add(CallListener listener) {
        if (listener != CallListener.NONE) {
            listeners.add(listener);
        }
    }

    /** Tells each listener of the event, in the order they joined. */
    private void tell(Consumer<CallListener> event) {
        for (CallListener listener : listeners) {
            event.accept(listener);
        }
    }

    @Override
    public void callerKnown(Caller caller) {
        tell(listener -> listener.callerKnown(caller));
    }

    @Override
    public void decoded(DecodedCall call) {
        tell(listener -> listener.decoded(call));
    }

    @Override
    public void resolved(ResolvedCall call) {
        tell(listener -> listener.resolved(call));
    }

    @Override
    public void admitted(AdmittedCall call) {
        tell(listener -> listener.admitted(call));
    }

    @Override
    public void answeredFromCache(CachedAnswer hit, CallEnd end) {
        tell(listener -> listener.answeredFromCache(hit, end));
    }

    @Override
    public void upstreamWaited(long nanos) {
        tell(listener -> listener.upstreamWaited(nanos));
    }

    @Override
    public void attemptLaidOut(List<String> droppedParams) {
        tell(listener -> listener.attemptLaidOut(droppedParams));
    }

    @Override
    public StreamTranslator streamStarted(StreamTranslator translator) {
        StreamTranslator watched = translator;
        for (CallListener listener : listeners) {
            watched = listener.streamStarted(watched);
        }
        return watched;
    }

    @Override
    public void streamCommitted(AttemptPlan plan) {
        tell(listener -> listener.streamCommitted(plan));
    }

    @Override
    public void deploymentAnswered(Deployment deployment, Supplier<String> model) {
        tell(listener -> listener.deploymentAnswered(deployment, model));
    }

    @Override
    public void answerRefused(String group, Deployment deployment, TokenUsage usage) {
        tell(listener -> listener.answerRefused(group, deployment, usage));
    }

    @Override
    public void routed(RouteOutcome<Answer> outcome) {
        tell(listener -> listener.routed(outcome));
    }

    @Override
    public void wholeAnswerWriting(Answer.Whole whole) {
        tell(listener -> listener.wholeAnswerWriting(whole));
    }

    @Override
    public void settled(CallEnd end, double cost) {
        tell(listener -> listener.settled(end, cost));
    }

    @Override
    public void cutAfterHead(int status) {
        tell(listener -> listener.cutAfterHead(status));
    }

    @Override
    public void ended(int status) {
        tell(listener -> listener.ended(status));
    }
}
