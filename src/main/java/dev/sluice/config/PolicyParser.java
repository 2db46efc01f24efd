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
final class PolicyParser {
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

    private PolicyParser() {}

    /** The counts in file order; empty when the node is absent or wrong (a problem is recorded). */
    static Map<String, Integer> read(ConfigNode node, List<String> names, FieldReader read) {
        if (node.isAbsent()) {
            return Map.of();
        }
        if (!node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false),
                    "a map from names like " + names.get(3) + " to integers >= 0");
            return Map.of();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> entry : node.entries()) {
            if (!names.contains(entry.getKey())) {
                read.problems().add(entry.getValue(), "unknown name", "one of " + String.join(", ", names));
                continue;
            }
            read.nonNegativeInt(entry.getValue()).ifPresent(count -> counts.put(entry.getKey(), count));
        }
        return Collections.unmodifiableMap(counts);
    }

    /** {@code model_group_retry_policy}: a policy per model group, in file order. */
    static Map<String, Map<String, Integer>> perGroup(ConfigNode node, List<String> names, FieldReader read) {
        if (node.isAbsent()) {
            return Map.of();
        }
        if (!node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a map from model groups to policies");
            return Map.of();
        }
        Map<String, Map<String, Integer>> policies = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> entry : node.entries()) {
            policies.put(entry.getKey(), read(entry.getValue(), names, read));
        }
        return Collections.unmodifiableMap(policies);
    }
}
