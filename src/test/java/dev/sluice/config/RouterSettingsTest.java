package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** router_settings, the litellm_settings keys that overlap them, defaults and sources. */
class RouterSettingsTest {
    static final String GROUPS = "gpt-4o, gpt-4o-mini";

    @Test
    void defaultsWhenNothingIsWritten() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("")).router();

        assertThat(router.routing().routingStrategy()).isEqualTo("simple-shuffle");
        assertThat(router.retries().numRetries()).isEqualTo(2);
        assertThat(router.timeouts().timeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(router.timeouts().streamTimeout()).isEmpty();
        assertThat(router.retries().maxClientNumRetries()).isEqualTo(5);
        assertThat(router.timeouts().maxClientTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(router.cooldowns().allowedFails()).isEqualTo(3);
        assertThat(router.cooldowns().cooldownTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(router.cooldowns().disableCooldowns()).isFalse();
        assertThat(router.fallbacks().fallbacks()).isEmpty();
        assertThat(router.fallbacks().contextWindowFallbacks()).isEmpty();
        assertThat(router.fallbacks().contentPolicyFallbacks()).isEmpty();
        assertThat(router.fallbacks().defaultFallbacks()).isEmpty();
        assertThat(router.fallbacks().maxFallbacks()).isEqualTo(5);
        assertThat(router.retries().retryPolicy()).isEmpty();
        assertThat(router.retries().modelGroupRetryPolicy()).isEmpty();
        assertThat(router.cooldowns().allowedFailsPolicy()).isEmpty();
        assertThat(router.preCallChecks().enablePreCallChecks()).isFalse();
        assertThat(router.preCallChecks().optionalPreCallChecks()).isEmpty();
        assertThat(router.routing().routingStrategyArgs()).isEmpty();
        assertThat(router.redis().redisHost()).isEmpty();
        assertThat(router.redis().redisPort()).isEmpty();
        assertThat(router.redis().redisPassword()).isEmpty();
        assertThat(router.redis().redisDb()).isEmpty();
        assertThat(router.redis().redisUrl()).isEmpty();
        assertThat(router.redis().redisKeyPrefix()).isEqualTo("sluice:");
        assertThat(router.redis().redisSocketTimeout()).isEmpty();
        assertThat(router.preCallChecks().enableTagFiltering()).isFalse();
        assertThat(router.preCallChecks().tagFilteringMatchAny()).isTrue();
        assertThat(router.routing().modelGroupAlias()).isEmpty();
        assertThat(router.sources()).hasSize(30).allSatisfy((key, source) -> assertThat(source).isEqualTo("default"));
    }

    @Test
    void readsEveryRouterSetting() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("""
                router_settings:
                  routing_strategy: latency-based-routing
                  num_retries: 4
                  timeout: 20
                  stream_timeout: 2.5
                  max_client_num_retries: 0
                  max_client_timeout: 30.5
                  allowed_fails: 1
                  cooldown_time: 0
                  disable_cooldowns: true
                  fallbacks: [{"gpt-4o": ["gpt-4o-mini"]}]
                  context_window_fallbacks: [{"gpt-4o-mini": ["gpt-4o"]}]
                  content_policy_fallbacks: [{"gpt-4o": ["gpt-4o-mini", "gpt-4o"]}]
                  default_fallbacks: ["gpt-4o-mini"]
                  max_fallbacks: 0
                  retry_policy: {RateLimitErrorRetries: 3, AuthenticationErrorRetries: 0}
                  model_group_retry_policy: {gpt-4o: {TimeoutErrorRetries: 1}}
                  allowed_fails_policy: {NotFoundErrorAllowedFails: 0}
                  enable_pre_call_checks: true
                  optional_pre_call_checks: ["prompt_caching"]
                  routing_strategy_args: {ttl: 60, lowest_latency_buffer: 0.5}
                  redis_host: redis.internal
                  redis_port: 6380
                  redis_password: redis-secret-value
                  redis_db: 2
                  redis_url: redis://redis.internal:6380/2
                  redis_key_prefix: "staging:"
                  redis_socket_timeout: 0.2
                  enable_tag_filtering: true
                  tag_filtering_match_any: false
                  model_group_alias: {gpt-4: gpt-4o}
                """)).router();

        assertThat(router.routing().routingStrategy()).isEqualTo("latency-based-routing");
        assertThat(router.retries().numRetries()).isEqualTo(4);
        assertThat(router.timeouts().timeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(router.timeouts().streamTimeout()).contains(Duration.ofMillis(2500));
        assertThat(router.retries().maxClientNumRetries()).isZero();
        assertThat(router.timeouts().maxClientTimeout()).isEqualTo(Duration.ofMillis(30_500));
        assertThat(router.cooldowns().allowedFails()).isEqualTo(1);
        assertThat(router.cooldowns().cooldownTime()).isEqualTo(Duration.ZERO);
        assertThat(router.cooldowns().disableCooldowns()).isTrue();
        assertThat(router.fallbacks().fallbacks()).containsExactly(entry("gpt-4o", List.of("gpt-4o-mini")));
        assertThat(router.fallbacks().contextWindowFallbacks()).containsExactly(entry("gpt-4o-mini", List.of("gpt-4o")));
        assertThat(router.fallbacks().contentPolicyFallbacks()).containsExactly(entry("gpt-4o", List.of("gpt-4o-mini", "gpt-4o")));
        assertThat(router.fallbacks().defaultFallbacks()).containsExactly("gpt-4o-mini");
        assertThat(router.fallbacks().maxFallbacks()).isZero();
        assertThat(router.retries().retryPolicy())
                .containsExactly(entry("RateLimitErrorRetries", 3), entry("AuthenticationErrorRetries", 0));
        assertThat(router.retries().modelGroupRetryPolicy()).containsExactly(entry("gpt-4o", Map.of("TimeoutErrorRetries", 1)));
        assertThat(router.cooldowns().allowedFailsPolicy()).containsExactly(entry("NotFoundErrorAllowedFails", 0));
        assertThat(router.preCallChecks().enablePreCallChecks()).isTrue();
        assertThat(router.preCallChecks().optionalPreCallChecks()).containsExactly("prompt_caching");
        assertThat(router.routing().routingStrategyArgs()).containsExactly(entry("ttl", 60), entry("lowest_latency_buffer", 0.5));
        assertThat(router.redis().redisHost()).contains("redis.internal");
        assertThat(router.redis().redisPort()).hasValue(6380);
        assertThat(router.redis().redisPassword()).contains(new Secret("redis-secret-value"));
        assertThat(router.redis().redisDb()).hasValue(2);
        assertThat(router.redis().redisUrl()).contains(new Secret("redis://redis.internal:6380/2"));
        assertThat(router.redis().redisKeyPrefix()).isEqualTo("staging:");
        assertThat(router.redis().redisSocketTimeout()).contains(Duration.ofMillis(200));
        assertThat(router.preCallChecks().enableTagFiltering()).isTrue();
        assertThat(router.preCallChecks().tagFilteringMatchAny()).isFalse();
        assertThat(router.routing().modelGroupAlias()).containsExactly(entry("gpt-4", new GroupAlias("gpt-4o", false)));
        assertThat(router.sources()).hasSize(30).allSatisfy((key, source) -> assertThat(source).isEqualTo("router_settings"));
    }

    @Test
    void takesTheOverlappingKeysFromLitellmSettingsUnderTheirLiteLlmNames() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("""
                litellm_settings:
                  num_retries: 6
                  request_timeout: 90
                  allowed_fails: 7
                  max_fallbacks: 8
                  fallbacks: [{"gpt-4o": ["gpt-4o-mini"]}]
                  context_window_fallbacks: [{"gpt-4o-mini": ["gpt-4o"]}]
                  content_policy_fallbacks: [{"gpt-4o": ["gpt-4o-mini"]}]
                  default_fallbacks: ["gpt-4o"]
                """)).router();

        assertThat(router.retries().numRetries()).isEqualTo(6);
        assertThat(router.timeouts().timeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(router.cooldowns().allowedFails()).isEqualTo(7);
        assertThat(router.fallbacks().maxFallbacks()).isEqualTo(8);
        assertThat(router.fallbacks().fallbacks()).containsOnlyKeys("gpt-4o");
        assertThat(router.fallbacks().contextWindowFallbacks()).containsOnlyKeys("gpt-4o-mini");
        assertThat(router.fallbacks().contentPolicyFallbacks()).containsOnlyKeys("gpt-4o");
        assertThat(router.fallbacks().defaultFallbacks()).containsExactly("gpt-4o");
        assertThat(router.sources()).contains(
                entry("num_retries", "litellm_settings"),
                entry("timeout", "litellm_settings"),
                entry("allowed_fails", "litellm_settings"),
                entry("max_fallbacks", "litellm_settings"),
                entry("fallbacks", "litellm_settings"),
                entry("context_window_fallbacks", "litellm_settings"),
                entry("content_policy_fallbacks", "litellm_settings"),
                entry("default_fallbacks", "litellm_settings"),
                entry("cooldown_time", "default"));
    }

    @Test
    void routerSettingsWinOverLitellmSettings() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("""
                router_settings:
                  timeout: 10
                  num_retries: 0
                litellm_settings:
                  request_timeout: 90
                  num_retries: 6
                """)).router();

        assertThat(router.timeouts().timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(router.retries().numRetries()).isZero();
        assertThat(router.sources()).contains(entry("timeout", "router_settings"), entry("num_retries", "router_settings"));
    }

    @Test
    void theClientTimeoutCapFollowsTheEffectiveTimeoutWhereverItComesFrom() throws ConfigException {
        RouterSettings fromLitellm = Configs.parse(Configs.withSection("litellm_settings: {request_timeout: 90}")).router();
        RouterSettings fromRouter = Configs.parse(Configs.withSection("router_settings: {timeout: 20}")).router();
        RouterSettings written = Configs.parse(Configs.withSection("router_settings: {timeout: 20, max_client_timeout: 45}")).router();

        assertThat(fromLitellm.timeouts().maxClientTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(fromRouter.timeouts().maxClientTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(fromRouter.sources()).containsEntry("max_client_timeout", "default");
        assertThat(written.timeouts().maxClientTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(written.sources()).containsEntry("max_client_timeout", "router_settings");
    }

    @Test
    void theClientCapsAreSluicesOwnAndNotReadFromLitellmSettings() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  max_client_num_retries: 1
                  max_client_timeout: 1
                """));

        assertThat(config.router().retries().maxClientNumRetries()).isEqualTo(5);
        assertThat(config.ignoredKeys()).containsExactly("litellm_settings.max_client_num_retries", "litellm_settings.max_client_timeout");
    }

    @Test
    void validatesALitellmSettingEvenWhenRouterSettingsOverrideIt() {
        assertThat(Configs.problems(Configs.withSection("""
                router_settings: {timeout: 10}
                litellm_settings: {request_timeout: 0}
                """))).containsExactly("litellm_settings.request_timeout: 0 (expected: > 0)");
    }

    @Test
    void keysOnlyRouterSettingsHaveAreNotTakenFromLitellmSettings() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                litellm_settings:
                  cooldown_time: 60
                  stream_timeout: 5
                """));

        assertThat(config.router().cooldowns().cooldownTime()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.router().timeouts().streamTimeout()).isEmpty();
        assertThat(config.ignoredKeys()).containsExactly("litellm_settings.cooldown_time", "litellm_settings.stream_timeout");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "accepted", textBlock = """
            routing_strategy: fastest              | router_settings.routing_strategy: fastest (expected: one of simple-shuffle, least-busy, usage-based-routing, usage-based-routing-v2, latency-based-routing, cost-based-routing)
            routing_strategy: usage-based-routing-v2 | accepted
            num_retries: -1                        | router_settings.num_retries: -1 (expected: >= 0)
            num_retries: 0                         | accepted
            timeout: 0                             | router_settings.timeout: 0 (expected: > 0)
            timeout: 0.5                           | accepted
            stream_timeout: 0                      | router_settings.stream_timeout: 0 (expected: > 0)
            stream_timeout: 0.5                    | accepted
            max_client_num_retries: -1             | router_settings.max_client_num_retries: -1 (expected: >= 0)
            max_client_num_retries: 0              | accepted
            max_client_num_retries: 1.5            | router_settings.max_client_num_retries: 1.5 (expected: an integer >= 0)
            max_client_timeout: 0                  | router_settings.max_client_timeout: 0 (expected: > 0)
            max_client_timeout: 0.001              | accepted
            max_client_timeout: soon               | router_settings.max_client_timeout: "soon" (expected: a number of seconds > 0)
            allowed_fails: -1                      | router_settings.allowed_fails: -1 (expected: >= 0)
            allowed_fails: 0                       | accepted
            cooldown_time: -1                      | router_settings.cooldown_time: -1 (expected: >= 0)
            cooldown_time: 0                       | accepted
            disable_cooldowns: maybe               | router_settings.disable_cooldowns: "maybe" (expected: true or false)
            disable_cooldowns: false               | accepted
            max_fallbacks: -1                      | router_settings.max_fallbacks: -1 (expected: >= 0)
            max_fallbacks: 0                       | accepted
            enable_pre_call_checks: 1              | router_settings.enable_pre_call_checks: 1 (expected: true or false)
            enable_pre_call_checks: true           | accepted
            optional_pre_call_checks: prompt_caching | router_settings.optional_pre_call_checks: "prompt_caching" (expected: a list of pre-call checks, each one of prompt_caching, router_budget_limiting, responses_api_deployment_check, deployment_affinity, session_affinity, forward_client_headers_by_model_group, enforce_model_rate_limits, encrypted_content_affinity)
            optional_pre_call_checks: [prompt_caching] | accepted
            optional_pre_call_checks: []           | accepted
            optional_pre_call_checks: [prompt_cache] | router_settings.optional_pre_call_checks[0]: prompt_cache (expected: one of prompt_caching, router_budget_limiting, responses_api_deployment_check, deployment_affinity, session_affinity, forward_client_headers_by_model_group, enforce_model_rate_limits, encrypted_content_affinity)
            optional_pre_call_checks: [prompt_caching, ~] | router_settings.optional_pre_call_checks[1]: null (expected: one of prompt_caching, router_budget_limiting, responses_api_deployment_check, deployment_affinity, session_affinity, forward_client_headers_by_model_group, enforce_model_rate_limits, encrypted_content_affinity)
            optional_pre_call_checks: [router_budget_limiting] | accepted
            routing_strategy_args: 5               | router_settings.routing_strategy_args: 5 (expected: a map)
            routing_strategy_args: {ttl: 1}        | accepted
            redis_host: ""                         | router_settings.redis_host: "" (expected: a non-empty string)
            redis_host: localhost                  | accepted
            redis_port: 0                          | router_settings.redis_port: 0 (expected: from 1 to 65535)
            redis_port: 1                          | accepted
            redis_port: 65535                      | accepted
            redis_port: 65536                      | router_settings.redis_port: 65536 (expected: from 1 to 65535)
            redis_port: "6379"                     | accepted
            redis_port: six                        | router_settings.redis_port: "six" (expected: an integer from 1 to 65535)
            redis_db: -1                           | router_settings.redis_db: -1 (expected: >= 0)
            redis_db: 0                            | accepted
            redis_password: ""                     | router_settings.redis_password: **** (expected: a non-empty string)
            redis_url: [x]                         | router_settings.redis_url: **** (expected: a non-empty string)
            retry_policy: {RateLimitErrorRetries: -1} | router_settings.retry_policy.RateLimitErrorRetries: -1 (expected: >= 0)
            retry_policy: {RateLimitErrorRetries: 0}  | accepted
            retry_policy: [RateLimitErrorRetries]  | router_settings.retry_policy: a list (expected: a map from names like RateLimitErrorRetries to integers >= 0)
            retry_policy: {NotFoundErrorRetries: 1} | router_settings.retry_policy.NotFoundErrorRetries: unknown name (expected: one of BadRequestErrorRetries, AuthenticationErrorRetries, TimeoutErrorRetries, RateLimitErrorRetries, ContentPolicyViolationErrorRetries, InternalServerErrorRetries)
            model_group_retry_policy: {gpt-4o: {TimeoutErrorRetries: -1}} | router_settings.model_group_retry_policy.gpt-4o.TimeoutErrorRetries: -1 (expected: >= 0)
            model_group_retry_policy: {"gpt-3.5-turbo": {TimeoutErrorRetries: -1}} | router_settings.model_group_retry_policy["gpt-3.5-turbo"].TimeoutErrorRetries: -1 (expected: >= 0)
            model_group_retry_policy: [1]          | router_settings.model_group_retry_policy: a list (expected: a map from model groups to policies)
            allowed_fails_policy: {TimeoutErrorAllowedFails: -1} | router_settings.allowed_fails_policy.TimeoutErrorAllowedFails: -1 (expected: >= 0)
            allowed_fails_policy: {TimeoutErrorAllowedFails: 0}  | accepted
            enable_tag_filtering: true        | accepted
            enable_tag_filtering: false       | accepted
            enable_tag_filtering: "true"      | accepted
            enable_tag_filtering: yes-please  | router_settings.enable_tag_filtering: "yes-please" (expected: true or false)
            enable_tag_filtering: 1           | router_settings.enable_tag_filtering: 1 (expected: true or false)
            enable_tag_filtering: [true]      | router_settings.enable_tag_filtering: a list (expected: true or false)
            tag_filtering_match_any: false    | accepted
            tag_filtering_match_any: any      | router_settings.tag_filtering_match_any: "any" (expected: true or false)
            """)
    void checksEachRouterSetting(String setting, String problem) {
        String yaml = Configs.withSection("router_settings:\n  " + setting);
        if (problem == null) {
            assertThat(Configs.problemsOrNone(yaml)).isEmpty();
        } else {
            assertThat(Configs.problems(yaml)).containsExactly(problem);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"gpt-4o": ["gpt-4o-mini"]}                      | router_settings.fallbacks: a map (expected: a list of single-key maps like {"gpt-4": ["gpt-3.5-turbo"]})
            ["gpt-4o"]                                       | router_settings.fallbacks[0]: "gpt-4o" (expected: a map with exactly one key: a model group and its fallback groups)
            [{"gpt-4o": ["gpt-4o-mini"], "gpt-4o-mini": []}] | router_settings.fallbacks[0]: a map with 2 keys (expected: a map with exactly one key: a model group and its fallback groups)
            [{"gpt-4o": "gpt-4o-mini"}]                      | router_settings.fallbacks[0].gpt-4o: "gpt-4o-mini" (expected: a list of model groups)
            [{"gpt-4o": ["gpt-5"]}]                          | router_settings.fallbacks[0].gpt-4o[0]: gpt-5 (expected: a model_name from model_list: gpt-4o, gpt-4o-mini)
            [{"gpt-4o": ["gpt-4o-mini"]}, {"gpt-4o": ["gpt-4o"]}] | router_settings.fallbacks[1].gpt-4o: written again (expected: each group once; it already has fallbacks at router_settings.fallbacks[0])
            """)
    void checksTheShapeAndTargetsOfFallbacks(String fallbacks, String problem) {
        assertThat(Configs.problems(Configs.withSection("router_settings:\n  fallbacks: " + fallbacks)))
                .containsExactly(problem);
    }

    @Test
    void checksTargetsOfEveryKindOfFallbackWhereverWritten() {
        assertThat(Configs.problems(Configs.withSection("""
                router_settings:
                  context_window_fallbacks: [{"gpt-4o": ["gpt-4o-large"]}]
                litellm_settings:
                  content_policy_fallbacks: [{"gpt-4o": ["claude"]}]
                  default_fallbacks: ["gpt-4o", "gpt-5"]
                """))).containsExactly(
                "router_settings.context_window_fallbacks[0].gpt-4o[0]: gpt-4o-large (expected: a model_name from model_list: " + GROUPS + ")",
                "litellm_settings.content_policy_fallbacks[0].gpt-4o[0]: claude (expected: a model_name from model_list: " + GROUPS + ")",
                "litellm_settings.default_fallbacks[1]: gpt-5 (expected: a model_name from model_list: " + GROUPS + ")");
    }

    @Test
    void keepsFallbacksInTheOrderWritten() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("""
                router_settings:
                  fallbacks:
                    - gpt-4o-mini: ["gpt-4o"]
                    - gpt-4o: ["gpt-4o-mini", "gpt-4o"]
                """)).router();

        assertThat(router.fallbacks().fallbacks()).containsExactly(
                entry("gpt-4o-mini", List.of("gpt-4o")), entry("gpt-4o", List.of("gpt-4o-mini", "gpt-4o")));
    }

    @Test
    void rejectsSectionsThatAreNotMaps() {
        assertThat(Configs.problems(Configs.withSection("""
                router_settings: [num_retries]
                litellm_settings: on
                general_settings: 3
                """))).containsExactly(
                "router_settings: a list (expected: a map)",
                "litellm_settings: true (expected: a map)",
                "general_settings: 3 (expected: a map)");
    }

    @Test
    void aPreCallCheckSluiceDoesNotRunYetIsListedAmongTheIgnoredKeys() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection(
                "router_settings:\n  optional_pre_call_checks: [prompt_caching, router_budget_limiting, prompt_caching]"));

        assertThat(config.router().preCallChecks().optionalPreCallChecks()).containsExactly("prompt_caching", "router_budget_limiting");
        assertThat(config.ignoredKeys()).containsExactly("router_settings.optional_pre_call_checks[1]");
    }
}
