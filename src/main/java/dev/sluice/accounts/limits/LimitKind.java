package dev.sluice.accounts.limits;

/** The three rate limits a scope can have, named as LiteLLM names them in headers and messages. */
public enum LimitKind {
    /** {@code rpm_limit}: requests admitted in the current minute. */
    REQUESTS("requests"),
    /** {@code tpm_limit}: tokens used by calls that ended in the current minute. */
    TOKENS("tokens"),
    /** {@code max_parallel_requests}: calls admitted and not yet ended. */
    PARALLEL("max_parallel_requests");

    private final String litellmName;

    LimitKind(String litellmName) {
        this.litellmName = litellmName;
    }

    /** {@code requests}, {@code tokens} or {@code max_parallel_requests}. */
    public String litellmName() {
        return litellmName;
    }
}
