package dev.sluice.config;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Config keys Sluice reads and validates but does not act on yet. When one of them is
 * written in the file it is listed among the ignored keys, so the start-up warning tells
 * the truth about what the gateway does.
 *
 * <p>This is the one place that knows it: each feature, when it lands, removes its keys
 * from here (retries remove {@code num_retries} and {@code retry_policy}, cooldown removes
 * {@code allowed_fails} and {@code cooldown_time}, and so on).
 */
final class NotYetActedOn {
    /** Paths with every list index written {@code []}. */
    private static final Set<String> KEYS = Set.of(
            // model_list entries
            "model_list[].litellm_params.max_retries",
            "model_list[].litellm_params.cooldown_time",
            "model_list[].litellm_params.input_cost_per_token",
            "model_list[].litellm_params.output_cost_per_token",
            "model_list[].model_info.max_input_tokens",
            "model_list[].model_info.max_output_tokens",
            "model_list[].model_info.allowed_fails_policy",
            "model_list[].model_info.cooldown_time",

            // retries
            "router_settings.num_retries", "litellm_settings.num_retries",
            "router_settings.retry_policy",
            "router_settings.model_group_retry_policy",

            // cooldown
            "router_settings.allowed_fails", "litellm_settings.allowed_fails",
            "router_settings.allowed_fails_policy",
            "router_settings.cooldown_time",
            "router_settings.disable_cooldowns",

            // fallbacks
            "router_settings.fallbacks", "litellm_settings.fallbacks",
            "router_settings.context_window_fallbacks", "litellm_settings.context_window_fallbacks",
            "router_settings.content_policy_fallbacks", "litellm_settings.content_policy_fallbacks",
            "router_settings.default_fallbacks", "litellm_settings.default_fallbacks",
            "router_settings.max_fallbacks", "litellm_settings.max_fallbacks",

            // routing
            "router_settings.enable_pre_call_checks",
            "router_settings.optional_pre_call_checks",
            "router_settings.routing_strategy_args",

            // shared state
            "router_settings.redis_host",
            "router_settings.redis_port",
            "router_settings.redis_password",
            "router_settings.redis_db",
            "router_settings.redis_url",

            // keys, teams and spend
            "general_settings.database_url");

    /** {@code routing_strategy} is acted on only when it names one of these. */
    static final Set<String> ROUTING_STRATEGIES = Set.of("simple-shuffle");

    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");

    private NotYetActedOn() {}

    static boolean covers(String path) {
        return KEYS.contains(INDEX.matcher(path).replaceAll("[]"));
    }
}
