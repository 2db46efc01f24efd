package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Configs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code sluice check-config} prints: the effective config, readable and valid YAML. */
class ConfigPrinterTest {
    static final Map<String, String> ENV = Map.of(
            "AZURE_EU_KEY", "azure-eu-secret-0001",
            "OPENAI_API_KEY", "sk-openai-secret-0002",
            "LITELLM_MASTER_KEY", "sk-master-secret-0003",
            "REDIS_HOST", "redis.internal");

    @Test
    void printsEveryDeploymentWithItsIdProviderAndParams() throws ConfigException {
        SluiceConfig config = Configs.parse(RealisticConfigTest.CONFIG, ENV);
        String printed = ConfigPrinter.print(config);

        assertThat(printed).contains("""
                  - model_name: gpt-4o
                    id: azure-eu  # model_info.id
                    provider: azure
                    provider_model: gpt-4o-eu
                    litellm_params:
                      model: azure/gpt-4o-eu
                      api_base: https://eu.openai.azure.com/
                      api_key: "****0001"
                      api_version: "2024-06-01"
                      rpm: 600
                      tpm: 100000
                      weight: 2
                      timeout: 30
                      stream_timeout: 0.5
                    model_info:
                      id: azure-eu
                      max_input_tokens: 128000
                """);
        assertThat(printed).contains("    id: " + config.deployments().get(1).id() + "  # derived from model_name and litellm_params\n");
        assertThat(printed).contains("      input_cost_per_token: 0.0000025\n");
    }

    @Test
    void saysWhereEachRouterSettingCameFrom() throws ConfigException {
        String printed = ConfigPrinter.print(Configs.parse(RealisticConfigTest.CONFIG, ENV));

        assertThat(printed).contains(
                "  routing_strategy: simple-shuffle  # router_settings\n",
                "  num_retries: 3  # router_settings\n",
                "  timeout: 45  # litellm_settings.request_timeout\n",
                "  stream_timeout: null  # default\n",
                "  max_client_num_retries: 5  # default\n",
                "  max_client_timeout: 45  # default: timeout\n",
                "  max_fallbacks: 5  # default\n",
                "  redis_host: redis.internal  # environment\n",
                "  fallbacks:  # router_settings\n    gpt-4o: [llama-3]\n",
                "  context_window_fallbacks:  # litellm_settings.context_window_fallbacks\n    llama-3: [gpt-4o]\n");
    }

    @Test
    void printsGeneralSettingsAndTheIgnoredKeys() throws ConfigException {
        String printed = ConfigPrinter.print(Configs.parse(RealisticConfigTest.CONFIG, ENV));

        assertThat(printed).contains("""
                general_settings:
                  master_key: "****0003"
                  database_url: null
                  max_request_size_mb: 8  # 8388608 bytes
                """);
        assertThat(printed).contains("ignored_keys:\n  - \"model_list[1].litellm_params.max_retries\"\n");
        assertThat(printed).contains("  - \"litellm_settings.callbacks[1]\"\n");
    }

    @Test
    void printsValidYamlThatReadsBackToTheSameValues() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                router_settings:
                  model_group_retry_policy: {"gpt-4o": {TimeoutErrorRetries: 1}}
                  retry_policy: {RateLimitErrorRetries: 2}
                  routing_strategy_args: {ttl: 60, "odd key": "a: b"}
                  default_fallbacks: ["gpt-4o-mini"]
                  optional_pre_call_checks: ["prompt_caching"]
                """));

        JsonNode printed = YamlTree.read(ConfigPrinter.print(config), "printed");

        assertThat(printed.at("/model_list/1/id").asText()).isEqualTo(config.deployments().get(1).id());
        assertThat(printed.at("/model_list/1/provider_model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(printed.at("/router_settings/model_group_retry_policy/gpt-4o/TimeoutErrorRetries").asInt()).isEqualTo(1);
        assertThat(printed.at("/router_settings/retry_policy/RateLimitErrorRetries").asInt()).isEqualTo(2);
        assertThat(printed.at("/router_settings/routing_strategy_args/odd key").asText()).isEqualTo("a: b");
        assertThat(printed.at("/router_settings/default_fallbacks/0").asText()).isEqualTo("gpt-4o-mini");
        assertThat(printed.at("/router_settings/disable_cooldowns").asBoolean(true)).isFalse();
        assertThat(printed.at("/router_settings/stream_timeout").isNull()).isTrue();
        assertThat(printed.at("/ignored_keys").isArray()).isTrue();
    }

    @Test
    void printsTheGuardrailsAndWhichDeploymentsNameThem() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o, guardrails: [pii]}
                router_settings: {max_client_num_retries: 1, max_client_timeout: 2.5}
                guardrails:
                  - guardrail_name: no-secrets
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: [post_call, pre_call]
                      default_on: true
                      blocked_words: [password, "yes"]
                      patterns:
                        - {pattern_type: regex, pattern: 'AKIA[0-9A-Z]{16}\\b', name: aws-key}
                  - guardrail_name: pii
                    litellm_params: {guardrail: litellm_content_filter, mode: pre_call, blocked_words: [ssn]}
                """);
        String printed = ConfigPrinter.print(config);

        assertThat(printed).contains("      model: openai/gpt-4o\n      guardrails: [pii]\n");
        assertThat(printed).contains("  max_client_num_retries: 1  # router_settings\n", "  max_client_timeout: 2.5  # router_settings\n");
        assertThat(printed).contains("""
                guardrails:
                  - guardrail_name: no-secrets
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: [pre_call, post_call]
                      default_on: true
                      blocked_words: [password, "yes"]
                      patterns:
                        - name: aws-key
                          pattern_type: regex
                          pattern: "AKIA[0-9A-Z]{16}\\\\b"
                  - guardrail_name: pii
                    litellm_params:
                      guardrail: litellm_content_filter
                      mode: [pre_call]
                      default_on: false
                      blocked_words: [ssn]
                      patterns: []
                """);
        JsonNode readBack = YamlTree.read(printed, "printed");
        assertThat(readBack.at("/guardrails/0/litellm_params/patterns/0/pattern").asText()).isEqualTo("AKIA[0-9A-Z]{16}\\b");
        assertThat(readBack.at("/guardrails/0/litellm_params/blocked_words/1").asText()).isEqualTo("yes");
    }

    @Test
    void printsAnEmptyGuardrailsList() throws ConfigException {
        assertThat(ConfigPrinter.print(Configs.parse(Configs.withSection("")))).contains("\nguardrails: []\n");
    }

    @Test
    void quotesTextThatWouldReadBackAsSomethingElse() {
        assertThat(YamlWriter.string("gpt-4o")).isEqualTo("gpt-4o");
        assertThat(YamlWriter.string("https://x.example.com:8443/v1")).isEqualTo("https://x.example.com:8443/v1");
        assertThat(YamlWriter.string("yes")).isEqualTo("\"yes\"");
        assertThat(YamlWriter.string("2024-06-01")).isEqualTo("\"2024-06-01\"");
        assertThat(YamlWriter.string("****")).isEqualTo("\"****\"");
        assertThat(YamlWriter.string("a: b")).isEqualTo("\"a: b\"");
        assertThat(YamlWriter.string("")).isEqualTo("\"\"");
    }

    @Test
    void printsTheOrderOfADeploymentThatSetsOne() throws ConfigException {
        String printed = ConfigPrinter.print(Configs.parse(Configs.withParam("order: 2")));

        assertThat(printed).contains("      model: openai/gpt-4o\n      order: 2\n");
    }
}
