package dev.sluice.accounts.limits;

import dev.sluice.model.Required;
import java.time.Duration;
import java.util.Objects;

/** What {@link RateLimits#admit} decided about one request. */
public sealed interface Admission {

    /** The {@code x-ratelimit-*} headers for the answer, admitted or refused. */
    RateLimitHeaders headers();

    /**
     * The request may go ahead. Its {@link Permit} must be released once when the call ends,
     * however it ends, so the in-flight count comes down and its tokens are counted.
     */
    record Admitted(Permit permit, RateLimitHeaders headers) implements Admission {
        public Admitted {
            Objects.requireNonNull(permit, "permit");
            Objects.requireNonNull(headers, "headers");
        }
    }

    /**
     * The request is refused (a 429) and nothing was counted for it.
     *
     * @param scope      the scope whose limit refused it
     * @param kind       which of its limits
     * @param limit      that limit's value
     * @param reason     LiteLLM's wording, for the error message and the logs
     * @param retryAfter how long until the limit can admit again: until the current minute
     *                   ends for {@code rpm}/{@code tpm}; {@link RateLimits#PARALLEL_RETRY_AFTER}
     *                   for {@code max_parallel_requests}, as a call may end at any moment
     */
    record Refused(Scope scope, LimitKind kind, long limit, String reason, Duration retryAfter, RateLimitHeaders headers)
            implements Admission {
        public Refused {
            Required.nonNull("scope, kind, reason, headers", scope, kind, reason, headers);
            if (retryAfter.isNegative() || retryAfter.isZero()) {
                throw new IllegalArgumentException("retryAfter: " + retryAfter + " (expected: > 0)");
            }
        }

        /** {@link #retryAfter} in whole seconds, rounded up, as the {@code Retry-After} header carries it. */
        public long retryAfterSeconds() {
            return RateLimits.wholeSecondsUp(retryAfter);
        }
    }
}
