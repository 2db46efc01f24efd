package dev.sluice.router;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the caller asked of the router for this one request, from the body
 * ({@code num_retries}, {@code fallbacks}, ..., or the same inside
 * {@code router_settings_override}) and the {@code x-litellm-*} headers, already checked
 * and capped by the configured maxima.
 *
 * @param fallbacks              replaces the configured {@code fallbacks} of the requested group
 * @param contextWindowFallbacks group to fallbacks, on top of the configured ones
 * @param contentPolicyFallbacks group to fallbacks, on top of the configured ones
 * @param modelGroupRetryPolicy  group to retry policy, on top of the configured ones
 * @param routingStrategy        a strategy for this request in place of the configured one
 * @param deploymentWeights      deployment id to weight, from the caller's team {@code router_settings}:
 *                               in a group where any deployment is listed, the listed ones take the
 *                               traffic by these weights and the others are backups
 */
public record CallerOverrides(
        OptionalInt numRetries,
        Optional<Duration> timeout,
        Optional<List<String>> fallbacks,
        Map<String, List<String>> contextWindowFallbacks,
        Map<String, List<String>> contentPolicyFallbacks,
        Map<String, Map<String, Integer>> modelGroupRetryPolicy,
        boolean disableFallbacks,
        Optional<String> routingStrategy,
        Map<String, Double> deploymentWeights) {

    public static final CallerOverrides NONE = new CallerOverrides(
            OptionalInt.empty(), Optional.empty(), Optional.empty(), Map.of(), Map.of(), Map.of(), false, Optional.empty(), Map.of());

    /**
     * These overrides over {@code base} (a team's): each value set here wins, the per-group
     * maps are merged with this one's entries winning, and fallbacks are disabled if either
     * disables them.
     */
    public CallerOverrides over(CallerOverrides base) {
        return new CallerOverrides(
                numRetries.isPresent() ? numRetries : base.numRetries,
                timeout.or(() -> base.timeout),
                fallbacks.or(() -> base.fallbacks),
                merged(base.contextWindowFallbacks, contextWindowFallbacks),
                merged(base.contentPolicyFallbacks, contentPolicyFallbacks),
                merged(base.modelGroupRetryPolicy, modelGroupRetryPolicy),
                disableFallbacks || base.disableFallbacks,
                routingStrategy.or(() -> base.routingStrategy),
                deploymentWeights.isEmpty() ? base.deploymentWeights : deploymentWeights);
    }

    private static <V> Map<String, V> merged(Map<String, V> base, Map<String, V> over) {
        if (base.isEmpty()) {
            return over;
        }
        if (over.isEmpty()) {
            return base;
        }
        Map<String, V> merged = new java.util.LinkedHashMap<>(base);
        merged.putAll(over);
        return Map.copyOf(merged);
    }
}
