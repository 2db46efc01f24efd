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
 */
public record CallerOverrides(
        OptionalInt numRetries,
        Optional<Duration> timeout,
        Optional<List<String>> fallbacks,
        Map<String, List<String>> contextWindowFallbacks,
        Map<String, List<String>> contentPolicyFallbacks,
        Map<String, Map<String, Integer>> modelGroupRetryPolicy,
        boolean disableFallbacks,
        Optional<String> routingStrategy) {

    public static final CallerOverrides NONE = new CallerOverrides(
            OptionalInt.empty(), Optional.empty(), Optional.empty(), Map.of(), Map.of(), Map.of(), false, Optional.empty());
}
