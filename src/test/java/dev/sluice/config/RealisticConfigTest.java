package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A config of the kind platform teams run LiteLLM with today, read end to end. */
class RealisticConfigTest {
    static final String CONFIG = """
            model_list:
              - model_name: gpt-4o
                litellm_params:
                  model: azure/gpt-4o-eu
                  api_base: https://eu.openai.azure.com/
                  api_key: os.environ/AZURE_EU_KEY
                  api_version: "2024-06-01"
                  rpm: 600
                  tpm: 100000
                  weight: 2
                  timeout: 30
                  stream_timeout: 0.5
                model_info:
                  id: azure-eu
                  max_input_tokens: 128000
              - model_name: gpt-4o
                litellm_params:
                  model: gpt-4o
                  api_key: os.environ/OPENAI_API_KEY
                  max_retries: 1
                  input_cost_per_token: 0.0000025
                  output_cost_per_token: 0.00001
              - model_name: llama-3
                litellm_params:
                  model: hosted_vllm/meta-llama/Meta-Llama-3-8B-Instruct
                  api_base: http://vllm.internal:8000/v1
                  temperature: 0.2
            router_settings:
              routing_strategy: simple-shuffle
              num_retries: 3
              fallbacks: [{"gpt-4o": ["llama-3"]}]
              allowed_fails: 2
              cooldown_time: 30
            litellm_settings:
              num_retries: 5
              request_timeout: 45
              context_window_fallbacks:
                - llama-3: ["gpt-4o"]
              drop_params: true
              callbacks: ["otel", "datadog"]
            general_settings:
              master_key: os.environ/LITELLM_MASTER_KEY
              max_request_size_mb: 8
              alerting: ["slack"]
            """;

    static final Map<String, String> ENV = Map.of(
            "AZURE_EU_KEY", "azure-eu-secret-0001",
            "OPENAI_API_KEY", "sk-openai-secret-0002",
            "LITELLM_MASTER_KEY", "sk-master-secret-0003");

    @Test
    void readsEveryDeploymentWithProviderAndParams() throws ConfigException {
        SluiceConfig config = Configs.parse(CONFIG, ENV);

        assertThat(config.deployments()).extracting(Deployment::modelName).containsExactly("gpt-4o", "gpt-4o", "llama-3");

        Deployment azure = config.deployments().get(0);
        assertThat(azure.id()).isEqualTo("azure-eu");
        assertThat(azure.params()).isEqualTo(new LitellmParams(
                "azure/gpt-4o-eu", "azure", "gpt-4o-eu",
                new EndpointParams(Optional.of("https://eu.openai.azure.com/"),
                        Optional.of(new Secret("azure-eu-secret-0001")),
                        Optional.of("2024-06-01"), List.of()),
                new CapacityParams(OptionalInt.of(600), OptionalInt.of(100000)), OptionalDouble.of(2), OptionalInt.empty(),
                new AttemptParams(Optional.of(Duration.ofSeconds(30)), Optional.of(Duration.ofMillis(500)),
                        OptionalInt.empty(), Optional.empty()),
                new PriceParams(OptionalDouble.empty(), OptionalDouble.empty(), UnitPrices.NONE), List.of(), List.of(),
                VendorParams.NONE.withDropParams(true)));
        assertThat(azure.info().maxInputTokens()).hasValue(128000);

        Deployment openai = config.deployments().get(1);
        assertThat(openai.params().provider()).isEqualTo("openai");
        assertThat(openai.params().providerModel()).isEqualTo("gpt-4o");
        assertThat(openai.params().endpoint().apiKey()).contains(new Secret("sk-openai-secret-0002"));
        assertThat(openai.params().attempts().maxRetries()).hasValue(1);
        assertThat(openai.params().prices().inputCostPerToken()).hasValue(0.0000025);
        assertThat(openai.id()).matches("[0-9a-f]{64}");
        assertThat(openai.info()).isEqualTo(ModelInfo.EMPTY);

        Deployment vllm = config.deployments().get(2);
        assertThat(vllm.params().provider()).isEqualTo("hosted_vllm");
        assertThat(vllm.params().providerModel()).isEqualTo("meta-llama/Meta-Llama-3-8B-Instruct");
        assertThat(vllm.params().endpoint().apiBase()).contains("http://vllm.internal:8000/v1");
    }

    @Test
    void routerSettingsWinOverLitellmSettingsAndSayWhereEachValueCameFrom() throws ConfigException {
        RouterSettings router = Configs.parse(CONFIG, ENV).router();

        assertThat(router.retries().numRetries()).isEqualTo(3);
        assertThat(router.timeouts().timeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(router.cooldowns().allowedFails()).isEqualTo(2);
        assertThat(router.cooldowns().cooldownTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(router.fallbacks().maxFallbacks()).isEqualTo(5);
        assertThat(router.fallbacks().fallbacks()).containsExactly(entry("gpt-4o", List.of("llama-3")));
        assertThat(router.fallbacks().contextWindowFallbacks()).containsExactly(entry("llama-3", List.of("gpt-4o")));

        assertThat(router.sources()).contains(
                entry("routing_strategy", "router_settings"),
                entry("num_retries", "router_settings"),
                entry("timeout", "litellm_settings"),
                entry("context_window_fallbacks", "litellm_settings"),
                entry("fallbacks", "router_settings"),
                entry("allowed_fails", "router_settings"),
                entry("max_fallbacks", "default"),
                entry("stream_timeout", "default"),
                entry("redis_host", "default"));
    }

    @Test
    void generalSettingsReadTheMasterKeyFromTheEnvironment() throws ConfigException {
        GeneralSettings general = Configs.parse(CONFIG, ENV).general();

        assertThat(general.masterKey()).contains(new Secret("sk-master-secret-0003"));
        assertThat(general.store().databaseUrl()).isEmpty();
        assertThat(general.maxRequestBytes()).isEqualTo(8L * 1024 * 1024);
    }

    @Test
    void listsEveryKeyItDoesNotActOnInFileOrder() throws ConfigException {
        assertThat(Configs.parse(CONFIG, ENV).ignoredKeys()).containsExactly(
                "model_list[1].litellm_params.max_retries",
                "model_list[2].litellm_params.temperature",
                "litellm_settings.callbacks[1]",
                "general_settings.alerting");
    }
}
