package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Keys that are read but not acted on: never an error, never silent. The lists here pin
 * down today's gateway; a feature that starts acting on a key removes it from
 * {@link NotYetActedOn} and from these expectations.
 */
class IgnoredKeysTest {

    @Test
    void listsKeysSluiceDoesNotModelWhereverTheyAre() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                environment_variables: {LANGFUSE_HOST: "https://langfuse.example.com"}
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      temperature: 0.2
                      drop_params: true
                      aws_profile_name: dev
                    model_info:
                      supports_vision: true
                    tags: [prod]
                router_settings:
                  enable_tag_routing: true
                litellm_settings:
                  callbacks: ["otel", "datadog"]
                  stream_timeout: 5
                general_settings:
                  alerting: ["slack"]
                made_up_key: 1
                """);

        assertThat(config.ignoredKeys()).containsExactly(
                "environment_variables",
                "model_list[0].litellm_params.temperature",
                "model_list[0].litellm_params.aws_profile_name",
                "model_list[0].model_info.supports_vision",
                "model_list[0].tags",
                "router_settings.enable_tag_routing",
                "litellm_settings.callbacks[1]",
                "litellm_settings.stream_timeout",
                "general_settings.alerting",
                "made_up_key");
    }

    @Test
    void listsEveryModelledKeyTheGatewayDoesNotActOnYet() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      api_base: https://api.example.com
                      api_key: sk-1
                      api_version: v1
                      rpm: 1
                      tpm: 1
                      weight: 1
                      timeout: 1
                      stream_timeout: 1
                      max_retries: 1
                      cooldown_time: 1
                      input_cost_per_token: 0.1
                      output_cost_per_token: 0.1
                    model_info:
                      id: a
                      max_input_tokens: 1
                      max_output_tokens: 1
                      allowed_fails_policy: {TimeoutErrorAllowedFails: 1}
                      cooldown_time: 1
                router_settings:
                  routing_strategy: simple-shuffle
                  num_retries: 1
                  timeout: 1
                  stream_timeout: 1
                  allowed_fails: 1
                  cooldown_time: 1
                  disable_cooldowns: true
                  fallbacks: [{gpt-4o: [gpt-4o]}]
                  context_window_fallbacks: [{gpt-4o: [gpt-4o]}]
                  content_policy_fallbacks: [{gpt-4o: [gpt-4o]}]
                  default_fallbacks: [gpt-4o]
                  max_fallbacks: 1
                  retry_policy: {TimeoutErrorRetries: 1}
                  model_group_retry_policy: {gpt-4o: {TimeoutErrorRetries: 1}}
                  allowed_fails_policy: {TimeoutErrorAllowedFails: 1}
                  enable_pre_call_checks: true
                  optional_pre_call_checks: [prompt_caching]
                  routing_strategy_args: {ttl: 1}
                  redis_host: localhost
                  redis_port: 6379
                  redis_password: p
                  redis_db: 0
                  redis_url: redis://localhost:6379
                litellm_settings:
                  num_retries: 1
                  request_timeout: 1
                  allowed_fails: 1
                  max_fallbacks: 1
                  fallbacks: [{gpt-4o: [gpt-4o]}]
                  context_window_fallbacks: [{gpt-4o: [gpt-4o]}]
                  content_policy_fallbacks: [{gpt-4o: [gpt-4o]}]
                  default_fallbacks: [gpt-4o]
                general_settings:
                  master_key: sk-master
                  database_url: postgresql://db/test
                  max_request_size_mb: 1
                """);

        assertThat(config.ignoredKeys()).containsExactly(
                "model_list[0].litellm_params.max_retries");
    }

    @Test
    void listsNothingForAConfigOfKeysTheGatewayActsOn() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: azure/gpt-4o
                      api_base: https://eu.example.com
                      api_key: k
                      api_version: "2024-06-01"
                      weight: 1
                      order: 1
                      rpm: 10
                      tpm: 1000
                      timeout: 30
                      stream_timeout: 5
                      cooldown_time: 10
                      guardrails: [no-secrets]
                    model_info:
                      id: eu
                      max_input_tokens: 128000
                      allowed_fails_policy: {TimeoutErrorAllowedFails: 2}
                      cooldown_time: 30
                      mode: chat
                router_settings:
                  routing_strategy: simple-shuffle
                  timeout: 60
                  stream_timeout: 10
                  max_client_num_retries: 3
                  max_client_timeout: 30
                  num_retries: 2
                  retry_policy: {RateLimitErrorRetries: 3}
                  model_group_retry_policy: {gpt-4o: {TimeoutErrorRetries: 1}}
                  allowed_fails: 3
                  allowed_fails_policy: {TimeoutErrorAllowedFails: 1}
                  cooldown_time: 5
                  disable_cooldowns: false
                  fallbacks: [{gpt-4o: [gpt-4o]}]
                  context_window_fallbacks: [{gpt-4o: [gpt-4o]}]
                  content_policy_fallbacks: [{gpt-4o: [gpt-4o]}]
                  default_fallbacks: [gpt-4o]
                  max_fallbacks: 2
                  enable_pre_call_checks: true
                  optional_pre_call_checks: [prompt_caching]
                litellm_settings:
                  request_timeout: 60
                  num_retries: 2
                  allowed_fails: 3
                  fallbacks: [{gpt-4o: [gpt-4o]}]
                  context_window_fallbacks: [{gpt-4o: [gpt-4o]}]
                  content_policy_fallbacks: [{gpt-4o: [gpt-4o]}]
                  default_fallbacks: [gpt-4o]
                  max_fallbacks: 2
                general_settings: {master_key: sk-1, max_request_size_mb: 4, background_health_checks: true, health_check_interval: 60,
                                   health_check_timeout: 5, health_check_bench_unhealthy: true}
                guardrails:
                  - guardrail_name: no-secrets
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: [pre_call, post_call]
                      default_on: false
                      blocked_words: [password, {keyword: confidential, action: BLOCK, description: internal}]
                      patterns:
                        - {pattern_type: regex, pattern: "AKIA[0-9A-Z]{16}", name: aws-key, action: BLOCK}
                        - {pattern_type: prebuilt, pattern_name: us_ssn, action: BLOCK}
                """);

        assertThat(config.ignoredKeys()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "acted on", textBlock = """
            simple-shuffle          | acted on
            least-busy              | acted on
            usage-based-routing     | acted on
            usage-based-routing-v2  | acted on
            latency-based-routing   | acted on
            cost-based-routing      | acted on
            """)
    void everyRoutingStrategyIsActedOn(String strategy, String ignored)
            throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("router_settings: {routing_strategy: " + strategy + "}"));

        if (ignored == null) {
            assertThat(config.ignoredKeys()).isEmpty();
        } else {
            assertThat(config.ignoredKeys()).containsExactly(ignored);
        }
    }

    @Test
    void aKeyWrittenWithoutAValueIsNotListed() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("router_settings:\n  redis_db:\n  routing_strategy_args: ~"));

        assertThat(config.ignoredKeys()).isEmpty();
        assertThat(config.router().sources()).containsEntry("redis_db", "default");
    }
}
