package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.CallTicket;
import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.config.Deployment;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Ends one call's accounting and works out what it cost, which the {@link AnswerWriter} tells
 * the caller in {@code x-litellm-response-cost}; the tokens it is charged for come from the
 * call's {@link CallTokens}. One per routed call; used on its event loop.
 *
 * <p>An answer a guardrail refused was still answered, and billed, by its deployment: it is
 * charged though the caller gets an error. The charge hears of that, and of the model an
 * answer names, as the call's listener; it tells the call's listeners when its accounting
 * ends ({@link CallListener#settled}).
 */
final class CallCharge implements CallListener {
    private final CallTicket ticket;
    /** Told when the call's accounting ends. */
    private final CallListener settled;
    /** An answer a guardrail refused, to be charged when the call ends with the refusal. */
    private Served refused;
    /** The model an answer of a deployment without a price said answered it; null when none did. */
    private String answeredModel;

    private record Served(String group, Deployment deployment, TokenUsage usage) {}

    /** @param settled told when the call's accounting ends, with what it cost */
    CallCharge(CallTicket ticket, CallListener settled) {
        this.ticket = ticket;
        this.settled = settled;
    }

    /**
     * An answer of {@code deployment} is in: the model it names ({@code model}, read only
     * when the deployment has no price of its own) may price it.
     */
    @Override
    public void deploymentAnswered(Deployment deployment, Supplier<String> model) {
        if (!ticket.priced(deployment)) {
            String named = model.get();
            if (named != null) {
                answeredModel = named;
            }
        }
    }

    /** A guardrail refused what {@code deployment} answered: it is charged when the call ends. */
    @Override
    public void answerRefused(String group, Deployment deployment, TokenUsage usage) {
        refused = new Served(group, deployment, usage);
    }

    /** A whole answer served by {@code deployment} of {@code group}, before it is written: what it cost. */
    double served(String group, Deployment deployment, int status, TokenUsage usage, BilledUnits units) {
        return Math.max(0, finish(CallEnd.served(group, ticket.chargedAs(deployment, answeredModel), usage, units, status)));
    }

    /**
     * A stream of {@code deployment} that named {@code model} is about to end (completed or cut
     * after its commit), having used {@code usage}: ends the call's accounting. Returns what it
     * cost, -1 when the accounting had already ended.
     */
    double streamServed(String group, Deployment deployment, int status, TokenUsage usage, String model) {
        return finish(CallEnd.served(group, ticket.chargedAs(deployment, model), usage, status));
    }

    /** An error is about to be answered: what the call cost (0 unless a refused answer was billed). */
    double errorCost(String group) {
        return ticket.price(end(group, 0));
    }

    /** The call ended with nothing served: an error answered with {@code status}, or the caller left (499). */
    void unserved(String group, int status) {
        finish(end(group, status));
    }

    /** Ends the call's accounting once (later ends cost -1 and change nothing), telling the call's listeners. */
    private double finish(CallEnd end) {
        double cost = ticket.finish(end);
        settled.settled(end, cost);
        return cost;
    }

    private CallEnd end(String group, int status) {
        if (refused == null) {
            return CallEnd.unserved(group, status);
        }
        return new CallEnd(refused.group(), Optional.of(refused.deployment()), refused.usage().promptTokens(),
                refused.usage().completionTokens(), status);
    }
}
