package dev.sluice.failure;

/**
 * The one classification of a failed attempt. Every decision about a failure is read off
 * this type and nowhere else: whether it ends the request, whether it repeats in place,
 * which siblings may take the request, how it counts toward a bench, which fallback list
 * applies, and what the caller is told when no upstream answer can be passed on. The table
 * in {@code docs/reliability.md} is this enum written out.
 */
public enum FailureClass {
    /** Refused, reset, DNS, TLS, or the stream cut before its first byte. */
    TRANSPORT("transport", true, Failover.ANY_UNTRIED, BenchRule.AFTER_ALLOWED_FAILS, Fallbacks.GENERAL,
            new PolicyKeys(null, null)),
    /** The attempt's own deadline ran out. */
    TIMEOUT("timeout", true, Failover.ANY_UNTRIED, BenchRule.AFTER_ALLOWED_FAILS, Fallbacks.GENERAL,
            new PolicyKeys("TimeoutErrorRetries", "TimeoutErrorAllowedFails")),
    /** 429. */
    RATE_LIMITED("rate_limited", true, Failover.ANY_UNTRIED, BenchRule.AT_ONCE, Fallbacks.GENERAL,
            new PolicyKeys("RateLimitErrorRetries", "RateLimitErrorAllowedFails")),
    /** 5xx, 408, 425. */
    SERVER("server", true, Failover.ANY_UNTRIED, BenchRule.AFTER_ALLOWED_FAILS, Fallbacks.GENERAL,
            new PolicyKeys("InternalServerErrorRetries", "InternalServerErrorAllowedFails")),
    /** 401, 403. */
    AUTH("auth", false, Failover.ANY_UNTRIED, BenchRule.AT_ONCE_UNLESS_COUNTED, Fallbacks.GENERAL,
            new PolicyKeys("AuthenticationErrorRetries", "AuthenticationErrorAllowedFails")),
    /** 404: the model is gone or the deployment is wrong. */
    NOT_FOUND("not_found", false, Failover.ANY_UNTRIED, BenchRule.AT_ONCE_UNLESS_COUNTED, Fallbacks.GENERAL,
            new PolicyKeys(null, "NotFoundErrorAllowedFails")),
    /** Any other settled 4xx (400, 413, 422, ...): the backend answered promptly. */
    REJECTED("rejected", false, Failover.ANY_UNTRIED, BenchRule.NEVER, Fallbacks.GENERAL,
            new PolicyKeys("BadRequestErrorRetries", "BadRequestErrorAllowedFails")),
    /** 400 context_length_exceeded: only a larger window can take the request. */
    CONTEXT_WINDOW("context_window", false, Failover.LARGER_WINDOW_ONLY, BenchRule.NEVER, Fallbacks.CONTEXT_WINDOW,
            new PolicyKeys("BadRequestErrorRetries", "BadRequestErrorAllowedFails")),
    /** 400 content filter or policy refusal. */
    CONTENT_POLICY("content_policy", false, Failover.NONE, BenchRule.NEVER, Fallbacks.CONTENT_POLICY,
            new PolicyKeys("ContentPolicyViolationErrorRetries", "ContentPolicyViolationErrorAllowedFails")),
    /** Sluice's own guardrail refused the prompt or the answer: the request ends with it. */
    GUARDRAIL("guardrail", false, Failover.NONE, BenchRule.NEVER, Fallbacks.NONE, new PolicyKeys(null, null));

    /** Which fallback list a class leads to once its group is exhausted. */
    public enum Fallbacks { GENERAL, CONTEXT_WINDOW, CONTENT_POLICY, NONE }

    /** Which untried deployments of the group may take the request after this failure. */
    public enum Failover { ANY_UNTRIED, LARGER_WINDOW_ONLY, NONE }

    /** How a failure of this class counts toward benching its deployment. */
    public enum BenchRule {
        /** The backend answered and judged the request: it is healthy. */
        NEVER,
        /** No capacity now: more traffic only prolongs it. Benched at once unless a policy allowance tolerates some. */
        AT_ONCE,
        /**
         * A wrong key or a retired model will not heal in seconds: benched at once unless a
         * policy allowance is set or {@code allowed_fails} was written to count every class.
         */
        AT_ONCE_UNLESS_COUNTED,
        /** Benched once the failures of a minute exceed the allowance. */
        AFTER_ALLOWED_FAILS
    }

    /** The {@code retry_policy} and {@code allowed_fails_policy} keys of a class; null where none applies. */
    private record PolicyKeys(String retry, String allowedFails) {}

    private final String wireName;
    private final boolean repeatsInPlace;
    private final Failover failover;
    private final BenchRule benchRule;
    private final Fallbacks fallbacks;
    private final PolicyKeys policyKeys;

    FailureClass(String wireName, boolean repeatsInPlace, Failover failover, BenchRule benchRule, Fallbacks fallbacks,
            PolicyKeys policyKeys) {
        this.wireName = wireName;
        this.repeatsInPlace = repeatsInPlace;
        this.failover = failover;
        this.benchRule = benchRule;
        this.fallbacks = fallbacks;
        this.policyKeys = policyKeys;
    }

    /** The name used in logs, events and docs, e.g. {@code rate_limited}. */
    public String wireName() {
        return wireName;
    }

    /**
     * Whether the failure ends the request where it happened: no sibling, no repeat, no
     * fallback. Only a guardrail's refusal does: it is about the request, not the backend.
     */
    public boolean endsRequest() {
        return fallbacks == Fallbacks.NONE;
    }

    /** Whether the same deployment may be tried again (only when no untried sibling is left). */
    public boolean repeatsInPlace() {
        return repeatsInPlace;
    }

    public Failover failover() {
        return failover;
    }

    /** Whether any untried deployment of the group may get the request. */
    public boolean failsOverToSibling() {
        return failover == Failover.ANY_UNTRIED;
    }

    /** Context-window refusals go only to siblings with a larger {@code max_input_tokens}. */
    public boolean failsOverOnlyToLargerWindow() {
        return failover == Failover.LARGER_WINDOW_ONLY;
    }

    public BenchRule benchRule() {
        return benchRule;
    }

    /** Whether the failure counts toward benching the deployment at all. */
    public boolean countsTowardBench() {
        return benchRule != BenchRule.NEVER;
    }

    /**
     * Whether the failure says the backend was unavailable rather than that it judged the
     * request: only these add up to "all backends unavailable".
     */
    public boolean unavailable() {
        return repeatsInPlace;
    }

    public Fallbacks fallbacks() {
        return fallbacks;
    }

    /** The {@code retry_policy} key for this class, or null when none applies. */
    public String retryPolicyKey() {
        return policyKeys.retry();
    }

    /** The {@code allowed_fails_policy} key for this class, or null when none applies. */
    public String allowedFailsPolicyKey() {
        return policyKeys.allowedFails();
    }

    /**
     * What the caller is told when the request ends with a failure of this class that has no
     * upstream answer to pass on: a guardrail's refusal, a timeout, a transport failure, an
     * unusable answer.
     */
    public CallerError toldWhenUnanswered() {
        return switch (this) {
            case GUARDRAIL -> new CallerError(400, "invalid_request_error", "guardrail_refused", "refused");
            case TIMEOUT -> new CallerError(408, "timeout_error", "upstream_timeout", "timed out");
            case TRANSPORT -> new CallerError(502, "server_error", "upstream_unreachable", "could not be reached");
            case RATE_LIMITED, SERVER, AUTH, NOT_FOUND, REJECTED, CONTEXT_WINDOW, CONTENT_POLICY ->
                    new CallerError(502, "server_error", "invalid_upstream_response", "failed");
        };
    }

    /**
     * What the caller is told when no deployment of the group could be called at all: none
     * has a window for the prompt, none may take the request's tags (the only rejection made
     * before a call; the code is LiteLLM's name for it), or none has room left this minute.
     */
    public CallerError toldWhenRefusedBeforeCalling() {
        return switch (this) {
            case CONTEXT_WINDOW -> new CallerError(400, "invalid_request_error", "context_length_exceeded", "refused");
            case REJECTED -> new CallerError(400, "invalid_request_error", "no_deployments_with_tag_routing", "refused");
            case TRANSPORT, TIMEOUT, RATE_LIMITED, SERVER, AUTH, NOT_FOUND, CONTENT_POLICY, GUARDRAIL ->
                    new CallerError(429, "rate_limit_error", "no_capacity", "refused");
        };
    }
}
