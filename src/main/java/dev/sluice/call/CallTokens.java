package dev.sluice.call;

import dev.sluice.accounts.CallTicket;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.Deployment;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Usage;
import dev.sluice.router.strategy.RequestFacts;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The tokens of one routed call: what its answers used, for its charge and for the routing
 * signals. One per call; used on its event loop.
 *
 * <h2>Design notes</h2>
 * Tokens come from the answer's {@code usage}. Only when it has none are they counted with
 * the served model's tokenizer, and only up to {@link #COUNTED_BYTES} of text on the event
 * loop: past that (a prompt of megabytes) the rest is estimated at four bytes a token, as a
 * count of it would hold the event loop for hundreds of milliseconds. A prompt routing has
 * already counted is not counted again, and none is counted for a caller whose accounting
 * needs no tokens of a deployment ({@link CallTicket#needsTokens}).
 */
record CallTokens(CallTicket ticket, ModelRequest request, RequestFacts facts, int bodyBytes) {
    /** Text counted with a tokenizer on the event loop; beyond it, four bytes count as a token. */
    static final int COUNTED_BYTES = 64 * 1024;
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();

    /**
     * The tokens of a whole answer of {@code deployment}: as {@code reported} by its usage,
     * else the prompt's and {@code answerText}'s counted.
     */
    TokenUsage usage(Deployment deployment, Optional<TokenUsage> reported, Supplier<String> answerText) {
        if (reported.isEmpty() && !ticket.needsTokens(deployment)) {
            return TokenUsage.NONE;
        }
        return reported.orElseGet(() -> new TokenUsage(promptTokens(encoding(deployment)),
                textTokens(answerText.get(), encoding(deployment))));
    }

    /**
     * A stream answer of {@code deployment} received whole (for an HTTP/1.0 caller, or a
     * guardrail), with what it used and the model it names.
     */
    StreamTally wholeStream(Deployment deployment, Buffer events, Optional<Usage> reported) {
        StreamTally tally = new StreamTally(ticket.needsTokens(deployment));
        tally.saw(events);
        reported.ifPresent(tally::reported);
        return tally;
    }

    /** Whether a stream of {@code deployment} must keep its text, to count it should it report no usage. */
    boolean keepsStreamText(Deployment deployment) {
        return ticket.needsTokens(deployment);
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

    /** For the fallback gate: the prompt's tokens counted with {@code encoding}, as cheaply as {@link #promptTokens}. */
    LongSupplier promptTokensWith(TokenEncoding encoding) {
        return () -> promptTokens(encoding);
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
}
