package dev.sluice.config;

import java.util.List;
import java.util.Map;

/**
 * Which groups a call falls back to when its own group cannot answer.
 *
 * @param fallbacks              group to ordered fallback groups, from LiteLLM's
 *                               list-of-single-key-maps form
 * @param contextWindowFallbacks the same, for a request too long for its group
 * @param contentPolicyFallbacks the same, for a request its group's vendor refuses by content policy
 * @param defaultFallbacks       fallback groups for any group without its own entry
 * @param maxFallbacks           {@code max_fallbacks}: the most fallback groups one call tries
 */
public record FallbackSettings(
        Map<String, List<String>> fallbacks,
        Map<String, List<String>> contextWindowFallbacks,
        Map<String, List<String>> contentPolicyFallbacks,
        List<String> defaultFallbacks,
        int maxFallbacks) {

    public FallbackSettings withFallbacks(Map<String, List<String>> replaced) {
        return new FallbackSettings(replaced, contextWindowFallbacks, contentPolicyFallbacks, defaultFallbacks, maxFallbacks);
    }

    public FallbackSettings withContextWindowFallbacks(Map<String, List<String>> replaced) {
        return new FallbackSettings(fallbacks, replaced, contentPolicyFallbacks, defaultFallbacks, maxFallbacks);
    }

    public FallbackSettings withContentPolicyFallbacks(Map<String, List<String>> replaced) {
        return new FallbackSettings(fallbacks, contextWindowFallbacks, replaced, defaultFallbacks, maxFallbacks);
    }

    public FallbackSettings withDefaultFallbacks(List<String> replaced) {
        return new FallbackSettings(fallbacks, contextWindowFallbacks, contentPolicyFallbacks, replaced, maxFallbacks);
    }
}
