package dev.sluice.config;

import java.util.Map;
import java.util.Optional;

/**
 * The router settings LiteLLM also reads from {@code litellm_settings} (where they set
 * module-wide defaults that its Router falls back on), by their {@code router_settings}
 * name. Only these apply from {@code litellm_settings}; {@code router_settings} wins
 * when both are written.
 */
final class LitellmSettingsOverlap {
    private static final Map<String, String> LITELLM_NAMES = Map.of(
            "num_retries", "num_retries",
            "timeout", "request_timeout",
            "allowed_fails", "allowed_fails",
            "max_fallbacks", "max_fallbacks",
            "fallbacks", "fallbacks",
            "context_window_fallbacks", "context_window_fallbacks",
            "content_policy_fallbacks", "content_policy_fallbacks",
            "default_fallbacks", "default_fallbacks");

    private LitellmSettingsOverlap() {}

    /** The {@code litellm_settings} name of a router setting, if it has one. */
    static Optional<String> litellmName(String routerKey) {
        return Optional.ofNullable(LITELLM_NAMES.get(routerKey));
    }
}
