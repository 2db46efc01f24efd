package dev.sluice.accounts.limits;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code x-ratelimit-*} headers of one admission decision, in the order they are to be
 * written. Empty when the request has no rate limits (LiteLLM then passes on the upstream's
 * own headers, which is the caller's business).
 *
 * <p>The OpenAI-style headers LiteLLM documents come first:
 * {@value #LIMIT_REQUESTS}, {@value #REMAINING_REQUESTS}, {@value #RESET_REQUESTS} and their
 * {@code -tokens} twins. When several scopes limit the same thing (a key's and its team's
 * {@code rpm_limit}), they describe the one with the fewest remaining, the one a client
 * actually runs into. The resets are whole seconds until the current minute ends, rounded up.
 *
 * <p>Then, as LiteLLM's current limiter writes them, one pair per scope and limit:
 * {@code x-ratelimit-<descriptor>-limit-<type>} and {@code x-ratelimit-<descriptor>-remaining-<type>},
 * with the descriptor {@code api_key}, {@code team} or {@code model_per_key} and the type
 * {@code requests}, {@code tokens} or {@code max_parallel_requests}.
 *
 * <p>Remaining counts never go below 0.
 */
public record RateLimitHeaders(Map<String, String> values) {
    public static final String LIMIT_REQUESTS = "x-ratelimit-limit-requests";
    public static final String REMAINING_REQUESTS = "x-ratelimit-remaining-requests";
    public static final String RESET_REQUESTS = "x-ratelimit-reset-requests";
    public static final String LIMIT_TOKENS = "x-ratelimit-limit-tokens";
    public static final String REMAINING_TOKENS = "x-ratelimit-remaining-tokens";
    public static final String RESET_TOKENS = "x-ratelimit-reset-tokens";

    /** No headers: the request had no rate limits. */
    public static final RateLimitHeaders NONE = new RateLimitHeaders(Map.of());

    public RateLimitHeaders {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** The name of a per-scope header, e.g. {@code x-ratelimit-team-remaining-tokens}. */
    public static String scoped(Scope scope, String limitOrRemaining, LimitKind kind) {
        return "x-ratelimit-" + scope.descriptor() + "-" + limitOrRemaining + "-" + kind.litellmName();
    }
}
