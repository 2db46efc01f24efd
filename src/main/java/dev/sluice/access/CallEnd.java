package dev.sluice.access;

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
 */
public record CallEnd(String group, Optional<Deployment> deployment, long promptTokens, long completionTokens, int status) {

    /** The status logged for a caller that hung up before its answer, as web servers log it. */
    public static final int CLIENT_CLOSED = 499;

    public CallEnd {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(deployment, "deployment");
        if (promptTokens < 0 || completionTokens < 0) {
            throw new IllegalArgumentException("tokens: " + promptTokens + "/" + completionTokens + " (expected: >= 0)");
        }
    }

    /** A call that no deployment served: nothing used, nothing charged. */
    public static CallEnd unserved(String group, int status) {
        return new CallEnd(group, Optional.empty(), 0, 0, status);
    }
}
