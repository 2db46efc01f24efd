package dev.sluice.config;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Config keys Sluice reads and validates but does not act on yet. When one of them is
 * written in the file it is listed among the ignored keys, so the start-up warning tells
 * the truth about what the gateway does.
 *
 * <p>This is the one place that knows it: each feature, when it lands, removes its keys
 * from here (as retries, cooldowns and fallbacks removed theirs).
 */
final class NotYetActedOn {
    /** Paths with every list index written {@code []}. */
    private static final Set<String> KEYS = Set.of(
            // model_list entries
            "model_list[].litellm_params.max_retries");

    /** {@code routing_strategy} is acted on only when it names one of these: all six of LiteLLM's. */
    static final Set<String> ROUTING_STRATEGIES = Set.of("simple-shuffle", "least-busy", "usage-based-routing",
            "usage-based-routing-v2", "latency-based-routing", "cost-based-routing");

    /** The {@code optional_pre_call_checks} Sluice runs; any other of LiteLLM's names is listed. */
    static final Set<String> PRE_CALL_CHECKS = Set.of("prompt_caching");

    private static final Pattern INDEX = Pattern.compile("\\[\\d+]");

    private NotYetActedOn() {}

    static boolean covers(String path) {
        return KEYS.contains(INDEX.matcher(path).replaceAll("[]"));
    }
}
