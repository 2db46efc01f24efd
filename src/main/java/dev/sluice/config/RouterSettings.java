package dev.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The effective router settings: {@code router_settings}, then the overlapping keys of
 * {@code litellm_settings}, then Sluice's defaults. {@link #sources()} says, for each key
 * by its config name (e.g. {@code num_retries}), where the value came from:
 * {@code router_settings}, {@code litellm_settings} or {@code default}; the Redis
 * settings may also say {@code environment} (from {@code REDIS_HOST}, {@code REDIS_PORT},
 * {@code REDIS_PASSWORD}, {@code REDIS_SOCKET_TIMEOUT}, which LiteLLM's proxy reads when
 * router_settings does not set them).
 *
 * @param maxClientNumRetries     Sluice's own {@code max_client_num_retries}: the most
 *                                {@code num_retries} a caller may ask for; more is cut to it
 * @param maxClientTimeout        Sluice's own {@code max_client_timeout}: the longest
 *                                {@code timeout} a caller may ask for; longer is cut to it.
 *                                Unset, it is {@link #timeout()}
 * @param fallbacks               group to ordered fallback groups, from LiteLLM's
 *                                list-of-single-key-maps form
 * @param defaultFallbacks        fallback groups for any group without its own entry
 * @param retryPolicy             e.g. {@code RateLimitErrorRetries: 3}
 * @param modelGroupRetryPolicy   group to its own retry policy
 * @param allowedFailsPolicy      e.g. {@code TimeoutErrorAllowedFails: 2}
 * @param routingStrategyArgs     strategy tuning as written ({@code ttl}, {@code lowest_latency_buffer}, ...)
 * @param redisKeyPrefix          Sluice's own {@code redis_key_prefix}: what every Redis key and
 *                                channel Sluice uses starts with, so several gateways (or tests)
 *                                can share one Redis without sharing state
 * @param enableTagFiltering      {@code enable_tag_filtering}: a request goes only to the deployments of a
 *                                group whose {@code litellm_params.tags} match its tags (see
 *                                {@link dev.sluice.router.precall.TagFilter})
 * @param tagFilteringMatchAny    {@code tag_filtering_match_any}: a deployment matches when it carries any
 *                                of the request's tags ({@code true}, LiteLLM's default), or only when it
 *                                carries every one of them
 * @param redisSocketTimeout      {@code redis_socket_timeout} (LiteLLM's {@code REDIS_SOCKET_TIMEOUT}):
 *                                how long one Redis call may take before the gateway counts Redis as
 *                                down and serves on local state. Unset, the gateway's own budget applies
 */
public record RouterSettings(
        String routingStrategy,
        int numRetries,
        Duration timeout,
        Optional<Duration> streamTimeout,
        int maxClientNumRetries,
        Duration maxClientTimeout,
        int allowedFails,
        Duration cooldownTime,
        boolean disableCooldowns,
        Map<String, List<String>> fallbacks,
        Map<String, List<String>> contextWindowFallbacks,
        Map<String, List<String>> contentPolicyFallbacks,
        List<String> defaultFallbacks,
        int maxFallbacks,
        Map<String, Integer> retryPolicy,
        Map<String, Map<String, Integer>> modelGroupRetryPolicy,
        Map<String, Integer> allowedFailsPolicy,
        boolean enablePreCallChecks,
        List<String> optionalPreCallChecks,
        boolean enableTagFiltering,
        boolean tagFilteringMatchAny,
        Map<String, Object> routingStrategyArgs,
        Optional<String> redisHost,
        OptionalInt redisPort,
        Optional<Secret> redisPassword,
        OptionalInt redisDb,
        Optional<Secret> redisUrl,
        String redisKeyPrefix,
        Optional<Duration> redisSocketTimeout,
        Map<String, GroupAlias> modelGroupAlias,
        Map<String, String> sources) {}
