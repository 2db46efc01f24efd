package dev.sluice.server;

import dev.sluice.access.CallEnd;
import dev.sluice.access.CallTicket;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.Deployment;
import dev.sluice.keys.PythonFloats;
import dev.sluice.router.strategy.RequestFacts;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Ends one call's accounting and tells the caller what it cost, in
 * {@code x-litellm-response-cost} (US dollars, written as LiteLLM writes them): a header on
 * a whole answer or an error, a trailer on a stream (its cost is known only at its end; the
 * head announces the trailer). Tokens come from the answer's {@code usage}, else are counted
 * with the served model's tokenizer. One per request; used on its event loop.
 */
final class CallCharge {
    static final String COST_HEADER = "x-litellm-response-cost";
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();

    private final CallTicket ticket;
    private final CallRequest request;
    private final RequestFacts facts;

    CallCharge(CallTicket ticket, CallRequest request, RequestFacts facts) {
        this.ticket = ticket;
        this.request = request;
        this.facts = facts;
    }

    /** The {@code x-ratelimit-*} headers of the caller's limits, for every answer. */
    void putLimitHeaders(HttpServerResponse response) {
        ticket.headers().forEach(response::putHeader);
    }

    /**
     * The tokens of a whole answer of {@code deployment}: as {@code reported} by its usage,
     * else the prompt's and {@code answerText}'s counted.
     */
    TokenUsage usage(Deployment deployment, Optional<TokenUsage> reported, Supplier<String> answerText) {
        return reported.orElseGet(() -> new TokenUsage(promptTokens(deployment), encoding(deployment).count(answerText.get())));
    }

    /** The tokens of a stream answer of {@code deployment} received whole (for an HTTP/1.0 caller, or a guardrail). */
    TokenUsage streamUsage(Deployment deployment, io.vertx.core.buffer.Buffer events) {
        StreamTally tally = new StreamTally();
        tally.saw(events);
        return tally.usage(promptTokens(deployment), encoding(deployment));
    }

    /** A whole answer served by {@code deployment} of {@code group}, before it is written. */
    void served(HttpServerResponse response, String group, Deployment deployment, int status, TokenUsage usage) {
        double cost = ticket.finish(new CallEnd(group, Optional.of(deployment), usage.promptTokens(), usage.completionTokens(), status));
        response.putHeader(COST_HEADER, PythonFloats.repr(Math.max(0, cost)));
    }

    /** An error is about to be answered: nothing was served, so the call cost nothing. */
    void putNoCost(HttpServerResponse response) {
        if (!response.headWritten()) {
            response.putHeader(COST_HEADER, PythonFloats.repr(0.0));
        }
    }

    /** The call ended with nothing served: an error answered with {@code status}, or the caller left (499). */
    void unserved(String group, int status) {
        ticket.finish(CallEnd.unserved(group, status));
    }

    /** A stream's head is about to go out: it announces the cost trailer. */
    void streamHead(HttpServerResponse response) {
        response.putHeader("Trailer", COST_HEADER);
    }

    /** A stream is about to end (completed or cut after its commit): counts it and sets the trailer. */
    void streamEnding(HttpServerResponse response, String group, Deployment deployment, int status, StreamTally tally) {
        TokenUsage usage = tally.usage(promptTokens(deployment), encoding(deployment));
        double cost = ticket.finish(new CallEnd(group, Optional.of(deployment), usage.promptTokens(), usage.completionTokens(), status));
        if (cost >= 0 && !response.ended() && !response.closed()) {
            response.putTrailer(COST_HEADER, PythonFloats.repr(cost));
        }
    }

    /** The prompt's tokens as routing counted them, else counted now with the deployment's tokenizer. */
    private long promptTokens(Deployment deployment) {
        if (facts.promptTokens() > 0) {
            return facts.promptTokens();
        }
        return PROMPT_TOKENS.count(request.body(), encoding(deployment));
    }

    private static TokenEncoding encoding(Deployment deployment) {
        return TokenEncoding.forModel(deployment.params().providerModel());
    }
}
