package dev.sluice.failure;

/**
 * The one classification of a failed attempt. Every decision the router makes about a
 * failure (repeat it in place, try a sibling, count it toward a bench, which fallback list
 * applies) is read off this type and nowhere else; the table in {@code docs/reliability.md}
 * is this enum written out.
 */
public enum FailureClass {
    /** Refused, reset, DNS, TLS, or the stream cut before its first byte. */
    TRANSPORT("transport", true, true, Fallbacks.GENERAL, null, null),
    /** The attempt's own deadline ran out. */
    TIMEOUT("timeout", true, true, Fallbacks.GENERAL, "TimeoutErrorRetries", "TimeoutErrorAllowedFails"),
    /** 429. */
    RATE_LIMITED("rate_limited", true, true, Fallbacks.GENERAL, "RateLimitErrorRetries", "RateLimitErrorAllowedFails"),
    /** 5xx, 408, 425. */
    SERVER("server", true, true, Fallbacks.GENERAL, "InternalServerErrorRetries", "InternalServerErrorAllowedFails"),
    /** 401, 403. */
    AUTH("auth", false, true, Fallbacks.GENERAL, "AuthenticationErrorRetries", "AuthenticationErrorAllowedFails"),
    /** 404: the model is gone or the deployment is wrong. */
    NOT_FOUND("not_found", false, true, Fallbacks.GENERAL, null, "NotFoundErrorAllowedFails"),
    /** Any other settled 4xx (400, 413, 422, ...): the backend answered promptly. */
    REJECTED("rejected", false, false, Fallbacks.GENERAL, "BadRequestErrorRetries", "BadRequestErrorAllowedFails"),
    /** 400 context_length_exceeded: only a larger window can take the request. */
    CONTEXT_WINDOW("context_window", false, false, Fallbacks.CONTEXT_WINDOW, "BadRequestErrorRetries", "BadRequestErrorAllowedFails"),
    /** 400 content filter or policy refusal. */
    CONTENT_POLICY("content_policy", false, false, Fallbacks.CONTENT_POLICY,
            "ContentPolicyViolationErrorRetries", "ContentPolicyViolationErrorAllowedFails"),
    /** Sluice's own guardrail refused the prompt or the answer. */
    GUARDRAIL("guardrail", false, false, Fallbacks.NONE, null, null);

    /** Which fallback list a class leads to once its group is exhausted. */
    public enum Fallbacks { GENERAL, CONTEXT_WINDOW, CONTENT_POLICY, NONE }

    private final String wireName;
    private final boolean repeatsInPlace;
    private final boolean countsTowardBench;
    private final Fallbacks fallbacks;
    private final String retryPolicyKey;
    private final String allowedFailsPolicyKey;

    FailureClass(String wireName, boolean repeatsInPlace, boolean countsTowardBench, Fallbacks fallbacks,
            String retryPolicyKey, String allowedFailsPolicyKey) {
        this.wireName = wireName;
        this.repeatsInPlace = repeatsInPlace;
        this.countsTowardBench = countsTowardBench;
        this.fallbacks = fallbacks;
        this.retryPolicyKey = retryPolicyKey;
        this.allowedFailsPolicyKey = allowedFailsPolicyKey;
    }

    /** The name used in logs, events and docs, e.g. {@code rate_limited}. */
    public String wireName() {
        return wireName;
    }

    /** Whether the same deployment may be tried again (only when no untried sibling is left). */
    public boolean repeatsInPlace() {
        return repeatsInPlace;
    }

    /**
     * Whether another deployment of the group that has not been tried may get the request.
     * {@link #CONTEXT_WINDOW} is answered by {@link #failsOverOnlyToLargerWindow()}.
     */
    public boolean failsOverToSibling() {
        return this != CONTENT_POLICY && this != GUARDRAIL && this != CONTEXT_WINDOW;
    }

    /** Context-window refusals go only to siblings with a larger {@code max_input_tokens}. */
    public boolean failsOverOnlyToLargerWindow() {
        return this == CONTEXT_WINDOW;
    }

    /** Whether the failure counts toward benching the deployment. */
    public boolean countsTowardBench() {
        return countsTowardBench;
    }

    /**
     * Whether the failure says the backend was unavailable rather than that it judged the
     * request: only these add up to "all backends unavailable".
     */
    public boolean unavailable() {
        return this == TRANSPORT || this == TIMEOUT || this == RATE_LIMITED || this == SERVER;
    }

    public Fallbacks fallbacks() {
        return fallbacks;
    }

    /** The {@code retry_policy} key for this class, or null when none applies. */
    public String retryPolicyKey() {
        return retryPolicyKey;
    }

    /** The {@code allowed_fails_policy} key for this class, or null when none applies. */
    public String allowedFailsPolicyKey() {
        return allowedFailsPolicyKey;
    }
}
