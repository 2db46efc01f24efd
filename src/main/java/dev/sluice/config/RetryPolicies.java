package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LiteLLM's per-error-type count maps, {@code retry_policy} and {@code allowed_fails_policy},
 * keyed by LiteLLM's own names. A name LiteLLM does not have is a problem: a typo here
 * would otherwise quietly fall back to the general setting.
 */
final class RetryPolicies {
    static final List<String> RETRY_POLICY_NAMES = List.of(
            "BadRequestErrorRetries",
            "AuthenticationErrorRetries",
            "TimeoutErrorRetries",
            "RateLimitErrorRetries",
            "ContentPolicyViolationErrorRetries",
            "InternalServerErrorRetries");

    static final List<String> ALLOWED_FAILS_POLICY_NAMES = List.of(
            "BadRequestErrorAllowedFails",
            "AuthenticationErrorAllowedFails",
            "TimeoutErrorAllowedFails",
            "RateLimitErrorAllowedFails",
            "ContentPolicyViolationErrorAllowedFails",
            "InternalServerErrorAllowedFails",
            "NotFoundErrorAllowedFails");

    private RetryPolicies() {}

    /** The counts in written order; empty when absent or wrong (a problem is recorded). */
    static Map<String, Integer> read(Written written, List<String> names) {
        if (written.isAbsent()) {
            return Map.of();
        }
        if (!written.isMap()) {
            written.problem(written.shown(), "a map from names like " + names.get(3) + " to integers >= 0");
            return Map.of();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Map.Entry<String, Written> entry : written.entries()) {
            if (!names.contains(entry.getKey())) {
                entry.getValue().problem("unknown name", "one of " + String.join(", ", names));
                continue;
            }
            Scalars.count(entry.getValue()).ifPresent(count -> counts.put(entry.getKey(), count));
        }
        return Collections.unmodifiableMap(counts);
    }

    /** {@code model_group_retry_policy}: a retry policy per model group, in written order. */
    static Map<String, Map<String, Integer>> perGroup(Written written) {
        if (written.isAbsent()) {
            return Map.of();
        }
        if (!written.isMap()) {
            written.problem(written.shown(), "a map from model groups to policies");
            return Map.of();
        }
        Map<String, Map<String, Integer>> policies = new LinkedHashMap<>();
        for (Map.Entry<String, Written> entry : written.entries()) {
            policies.put(entry.getKey(), read(entry.getValue(), RETRY_POLICY_NAMES));
        }
        return Collections.unmodifiableMap(policies);
    }
}
