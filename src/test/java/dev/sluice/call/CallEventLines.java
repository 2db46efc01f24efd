package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.Caller;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.call.cache.CachedAnswer;
import dev.sluice.config.Deployment;
import dev.sluice.router.AttemptPlan;
import dev.sluice.router.RouteOutcome;
import dev.sluice.vendors.stream.StreamTranslator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's events as short lines, in the order its listeners heard them, for asserting the
 * sequence: {@code caller open}, {@code decoded}, {@code resolved chat}, {@code laid-out},
 * {@code answered chat/0}, {@code routed served chat/0}, {@code writing whole},
 * {@code settled 200}, {@code ended 200}. How long the call waited upstream is left out: it
 * is real time, not a step of the call.
 */
final class CallEventLines implements CallListener {
    private final String callId;
    private final List<String> lines = new ArrayList<>();

    CallEventLines(String callId) {
        this.callId = callId;
    }

    String callId() {
        return callId;
    }

    /** The lines so far. */
    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /**
     * The lines once the call is over, waiting at most {@code patience}: its answer has ended
     * and, when it was admitted, its accounting too (an error's comes after its answer ends).
     */
    synchronized List<String> linesOnceEnded(Duration patience) throws InterruptedException {
        long giveUp = System.nanoTime() + patience.toNanos();
        while (!over()) {
            long left = giveUp - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("call " + callId + " did not end; heard " + lines);
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return List.copyOf(lines);
    }

    private boolean over() {
        boolean ended = lines.stream().anyMatch(line -> line.startsWith("ended "));
        boolean accounted = !lines.contains("admitted")
                || lines.stream().anyMatch(line -> line.startsWith("settled ") || line.startsWith("from-cache "));
        return ended && accounted;
    }

    private synchronized void add(String line) {
        lines.add(line);
        notifyAll();
    }

    @Override
    public void callerKnown(Caller caller) {
        add("caller " + switch (caller) {
            case Caller.Open open -> "open";
            case Caller.Admin admin -> "admin";
            case Caller.Keyed keyed -> "keyed";
        });
    }

    @Override
    public void decoded(DecodedCall call) {
        add("decoded");
    }

    @Override
    public void resolved(ResolvedCall call) {
        add("resolved " + call.group().name());
    }

    @Override
    public void admitted(AdmittedCall call) {
        add("admitted");
    }

    @Override
    public void answeredFromCache(CachedAnswer hit, CallEnd end) {
        add("from-cache " + end.status());
    }

    @Override
    public void attemptLaidOut(List<String> droppedParams) {
        add(droppedParams.isEmpty() ? "laid-out" : "laid-out dropping " + droppedParams);
    }

    @Override
    public StreamTranslator streamStarted(StreamTranslator translator) {
        add("stream-started");
        return translator;
    }

    @Override
    public void streamCommitted(AttemptPlan plan) {
        add("stream-committed");
    }

    @Override
    public void deploymentAnswered(Deployment deployment, Supplier<String> model) {
        add("answered " + deployment.id());
    }

    @Override
    public void answerRefused(String group, Deployment deployment, TokenUsage usage) {
        add("answer-refused " + group + "/" + deployment.id());
    }

    @Override
    public void routed(RouteOutcome<Answer> outcome) {
        String how = outcome.cancelled() ? "cancelled" : outcome.served().isPresent() ? "served" : "failed";
        add("routed " + how + " " + outcome.lastGroup() + "/" + outcome.lastDeployment().id()
                + (outcome.retriesInLastGroup() > 0 ? " after " + outcome.retriesInLastGroup() + " retries" : ""));
    }

    @Override
    public void wholeAnswerWriting(Answer.Whole whole) {
        add("writing whole");
    }

    @Override
    public void settled(CallEnd end, double cost) {
        add("settled " + end.status());
    }

    @Override
    public void cutAfterHead(int status) {
        add("cut-after-head " + status);
    }

    @Override
    public void ended(int status) {
        add("ended " + status);
    }
}
