package dev.sluice.call;

import dev.sluice.accounts.CallEnd;
import dev.sluice.accounts.CallTicket;
import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.Deployment;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.strategy.RequestFacts;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Ends one call's accounting and works out what it cost, which the {@link AnswerWriter} tells
 * the caller in {@code x-litellm-response-cost}. One per request; used on its event loop.
 *
 * <h2>Design notes</h2>
 * Tokens come from the answer's {@code usage}. Only when it has none are they counted with
 * the served model's tokenizer, and only up to {@link #COUNTED_BYTES} of text on the event
 * loop: past that (a prompt of megabytes) the rest is estimated at four bytes a token, as a
 * count of it would hold the event loop for hundreds of milliseconds. A prompt routing has
 * already counted is not counted again.
 *
 * <p>An answer a guardrail refused was still answered, and billed, by its deployment: it is
 * charged though the caller gets an error. The charge hears of that, and of the model a whole
 * answer names, as the call's listener; it tells the call's listeners when its accounting
 * ends ({@link CallListener#settled}).
 */
final class CallCharge implements CallListener {
    /** Text counted with a tokenizer on the event loop; beyond it, four bytes count as a token. */
    static final int COUNTED_BYTES = 64 * 1024;
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();

    private final CallTicket ticket;
    private final ModelRequest request;
    private final RequestFacts facts;
    private final int bodyBytes;
    /** Told when the call's accounting ends. */
    private final CallListener settled;
    /** An answer a guardrail refused, to be charged when the call ends with the refusal. */
    private Served refused;
    /** The model an answer of a deployment without a price said answered it; null when none did. */
    private String answeredModel;

    private record Served(String group, Deployment deployment, TokenUsage usage) {}

    /** @param settled told when the call's accounting ends, with what it cost */
    CallCharge(CallTicket ticket, ModelRequest request, RequestFacts facts, int bodyBytes, CallListener settled) {
        this.ticket = ticket;
        this.settled = settled;
        this.request = request;
        this.facts = facts;
        this.bodyBytes = bodyBytes;
    }

    /**
     * The tokens of a whole answer of {@code deployment}: as {@code reported} by its usage,
     * else the prompt's and {@code answerText}'s counted.
     */
    TokenUsage usage(Deployment deployment, Optional<TokenUsage> reported, Supplier<String> answerText) {
        if (reported.isEmpty() && !ticket.needsTokens(deployment)) {
            return TokenUsage.NONE;
        }
        return reported.orElseGet(() -> new TokenUsage(promptTokens(encoding(deployment)), textTokens(answerText.get(), encoding(deployment))));
    }

    /** The tokens of a stream answer of {@code deployment} received whole (for an HTTP/1.0 caller, or a guardrail). */
    TokenUsage streamUsage(Deployment deployment, Buffer events, java.util.Optional<dev.sluice.model.Usage> reported) {
        StreamTally tally = new StreamTally(ticket.needsTokens(deployment));
        tally.saw(events);
        reported.ifPresent(tally::reported);
        if (tally.answeredModel() != null) {
            answeredModel = tally.answeredModel();
        }
        return tally.usage(() -> promptTokens(encoding(deployment)), encoding(deployment));
    }

    /**
     * A whole answer of {@code deployment} is in: the model it names ({@code model}, read only
     * when the deployment has no price of its own) may price it.
     */
    @Override
    public void deploymentAnswered(Deployment deployment, Supplier<String> model) {
        if (!ticket.priced(deployment)) {
            answeredModel = model.get();
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

    /** Whether a stream of {@code deployment} must keep its text, to count it should it report no usage. */
    boolean keepsStreamText(Deployment deployment) {
        return ticket.needsTokens(deployment);
    }

    /**
     * A stream is about to end (completed or cut after its commit): counts it and ends the
     * call's accounting. Returns what it cost, -1 when the accounting had already ended.
     */
    double streamServed(String group, Deployment deployment, int status, StreamTally tally) {
        TokenUsage usage = streamUsage(deployment, tally);
        return finish(CallEnd.served(group, ticket.chargedAs(deployment, tally.answeredModel()), usage, status));
    }

    /** What a stream of {@code deployment} used, as far as {@code tally} has seen it. */
    TokenUsage streamUsage(Deployment deployment, StreamTally tally) {
        return tally.usage(() -> promptTokens(encoding(deployment)), encoding(deployment));
    }

    /** The prompt's tokens: as routing counted them, else counted now, or estimated for a very large body. */
    int promptTokens(TokenEncoding encoding) {
        if (facts.promptTokens() > 0) {
            return facts.promptTokens();
        }
        if (bodyBytes > COUNTED_BYTES) {
            return bodyBytes / 4;
        }
        return PROMPT_TOKENS.count(request.body(), encoding);
    }

    /** A text's tokens, counted up to {@link #COUNTED_BYTES} and estimated beyond. */
    static long textTokens(String text, TokenEncoding encoding) {
        if (text.length() <= COUNTED_BYTES / 4) {
            return encoding.count(text);
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= COUNTED_BYTES) {
            return encoding.count(text);
        }
        String counted = new String(bytes, 0, COUNTED_BYTES, StandardCharsets.UTF_8);
        return encoding.count(counted) + (bytes.length - COUNTED_BYTES) / 4;
    }

    private static TokenEncoding encoding(Deployment deployment) {
        return TokenEncoding.forModel(deployment.params().providerModel());
    }

    /** For the fallback gate: the prompt's tokens counted with {@code encoding}, as cheaply as {@link #promptTokens}. */
    LongSupplier promptTokensWith(TokenEncoding encoding) {
        return () -> promptTokens(encoding);
    }
}
