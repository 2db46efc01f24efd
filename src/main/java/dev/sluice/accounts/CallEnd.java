package dev.sluice.accounts;

import dev.sluice.accounts.spend.BilledUnits;
import dev.sluice.accounts.spend.TokenUsage;
import dev.sluice.config.Deployment;
import java.util.Objects;
import java.util.Optional;

/**
 * How a call ended, for its accounting.
 *
 * @param group            the group that served, or that answered last; the requested one when none was called
 * @param deployment       the deployment that served; empty when none did
 * @param promptTokens     as the answer's usage said, else as counted
 * @param completionTokens as the answer's usage said, else as counted
 * @param status           the HTTP status the caller got (499 when it left first)
 * @param cacheReadTokens  of the prompt tokens, those read from the vendor's prompt cache
 * @param cacheWriteTokens of the prompt tokens, those written to it
 * @param units            what it used that is billed otherwise than by tokens (images, seconds of audio, ...)
 */
public record CallEnd(String group, Optional<Deployment> deployment, long promptTokens, long completionTokens, int status,
        long cacheReadTokens, long cacheWriteTokens, BilledUnits units) {

    /** The status logged for a caller that hung up before its answer, as web servers log it. */
    public static final int CLIENT_CLOSED = 499;

    public CallEnd {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(deployment, "deployment");
        if (promptTokens < 0 || completionTokens < 0) {
            throw new IllegalArgumentException("tokens: " + promptTokens + "/" + completionTokens + " (expected: >= 0)");
        }
        Objects.requireNonNull(units, "units");
    }


    /** A call whose prompt used no cache. */
    public CallEnd(String group, Optional<Deployment> deployment, long promptTokens, long completionTokens, int status) {
        this(group, deployment, promptTokens, completionTokens, status, 0, 0, BilledUnits.NONE);
    }

    /** A call of {@code deployment} that used {@code usage}. */
    public static CallEnd served(String group, Deployment deployment, TokenUsage usage, int status) {
        return served(group, deployment, usage, BilledUnits.NONE, status);
    }

    /** A call of {@code deployment} that used {@code usage} and {@code units}. */
    public static CallEnd served(String group, Deployment deployment, TokenUsage usage, BilledUnits units, int status) {
        return new CallEnd(group, Optional.of(deployment), usage.promptTokens(), usage.completionTokens(), status,
                usage.cacheReadTokens(), usage.cacheWriteTokens(), units);
    }

    /** The tokens the call used. */
    public TokenUsage usage() {
        return new TokenUsage(promptTokens, completionTokens, cacheReadTokens, cacheWriteTokens);
    }

    /** A call that no deployment served: nothing used, nothing charged. */
    public static CallEnd unserved(String group, int status) {
        return new CallEnd(group, Optional.empty(), 0, 0, status);
    }
}
