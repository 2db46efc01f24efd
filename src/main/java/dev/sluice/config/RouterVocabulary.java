package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one reader of the router-settings vocabulary: one rule per setting, whichever source
 * the value comes from (the config file's {@code router_settings}, the router settings API,
 * a team's {@code router_settings}, a request's overrides). A source chooses which names it
 * takes and how a problem reaches its writer ({@link Written}); a value wrong in one is wrong
 * in all.
 *
 * <p>Every reader returns empty for an absent value, and for a wrong one after recording the
 * problem.
 */
public final class RouterVocabulary {
    public static final String ROUTING_STRATEGY = "routing_strategy";
    public static final String NUM_RETRIES = "num_retries";
    public static final String TIMEOUT = "timeout";
    public static final String ALLOWED_FAILS = "allowed_fails";
    public static final String COOLDOWN_TIME = "cooldown_time";
    public static final String FALLBACKS = "fallbacks";
    public static final String CONTEXT_WINDOW_FALLBACKS = "context_window_fallbacks";
    public static final String CONTENT_POLICY_FALLBACKS = "content_policy_fallbacks";
    public static final String DEFAULT_FALLBACKS = "default_fallbacks";
    public static final String RETRY_POLICY = "retry_policy";
    public static final String MODEL_GROUP_RETRY_POLICY = "model_group_retry_policy";
    public static final String ALLOWED_FAILS_POLICY = "allowed_fails_policy";
    public static final String DEPLOYMENT_WEIGHTS = "deployment_weights";
    public static final String ENABLE_TAG_FILTERING = "enable_tag_filtering";

    /** Routing strategies by LiteLLM's names. */
    public static final List<String> ROUTING_STRATEGIES = List.of("simple-shuffle", "least-busy",
            "usage-based-routing", "usage-based-routing-v2", "latency-based-routing", "cost-based-routing");

    private final Fallbacks fallbacks;

    /** @param groups the model groups served, which fallback targets must name; empty: targets are not checked */
    public RouterVocabulary(Set<String> groups) {
        this.fallbacks = new Fallbacks(Set.copyOf(groups));
    }

    /** A vocabulary that does not check fallback targets: for values read back from the store, or a team's. */
    public static RouterVocabulary unchecked() {
        return new RouterVocabulary(Set.of());
    }

    /** {@code routing_strategy}: one of {@link #ROUTING_STRATEGIES}. */
    public Optional<String> routingStrategy(Written written) {
        return Scalars.oneOf(written, ROUTING_STRATEGIES);
    }

    /** {@code num_retries}, {@code allowed_fails} and every other count: a whole number >= 0. */
    public Optional<Integer> count(Written written) {
        return Scalars.count(written);
    }

    /** {@code timeout}: seconds > 0. */
    public Optional<Duration> timeout(Written written) {
        return Scalars.seconds(written, true);
    }

    /** {@code cooldown_time}: seconds >= 0. */
    public Optional<Duration> cooldownTime(Written written) {
        return Scalars.seconds(written, false);
    }

    /** {@code enable_tag_filtering} and every other switch: {@code true} or {@code false}. */
    public Optional<Boolean> flag(Written written) {
        return Scalars.flag(written);
    }

    /** {@code fallbacks}, {@code context_window_fallbacks}, {@code content_policy_fallbacks}. */
    public Optional<Map<String, List<String>>> fallbacks(Written written) {
        return fallbacks.byGroup(written);
    }

    /** Fallbacks as a request may write them, a bare group name standing for a fallback of {@code requested}. */
    public Optional<Map<String, List<String>>> fallbacks(Written written, String requested) {
        return fallbacks.withShortForm(written, requested);
    }

    /** {@code default_fallbacks}: a list of model groups. */
    public Optional<List<String>> targets(Written written) {
        return fallbacks.targets(written);
    }

    /** {@code retry_policy}: counts by LiteLLM's error names ({@code RateLimitErrorRetries}). */
    public Map<String, Integer> retryPolicy(Written written) {
        return RetryPolicies.read(written, RetryPolicies.RETRY_POLICY_NAMES);
    }

    /** {@code model_group_retry_policy}: a retry policy per model group. */
    public Map<String, Map<String, Integer>> modelGroupRetryPolicy(Written written) {
        return RetryPolicies.perGroup(written);
    }

    /** {@code allowed_fails_policy}: counts by LiteLLM's error names ({@code TimeoutErrorAllowedFails}). */
    public Map<String, Integer> allowedFailsPolicy(Written written) {
        return RetryPolicies.read(written, RetryPolicies.ALLOWED_FAILS_POLICY_NAMES);
    }

    /** {@code deployment_weights}: deployment id to a weight from 0 to 1000000. */
    public Optional<Map<String, Double>> deploymentWeights(Written written) {
        return DeploymentWeights.read(written);
    }
}
