package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import org.junit.jupiter.api.Test;

/** {@code model_info.base_model} and the prices LiteLLM lets {@code model_info} hold: read, checked and printed. */
class ModelInfoPricingTest {
    private static final String CONFIG = """
            model_list:
              - model_name: gpt-4o
                litellm_params: {model: azure/my-gpt4o-deployment, api_key: k}
                model_info: {id: azure-eu, base_model: azure/gpt-4o, input_cost_per_token: 0.0000025, output_cost_per_token: 0.00001}
            """;

    @Test
    void readsTheBaseModelAndPricesWithoutCallingThemUnknown() throws ConfigException {
        SluiceConfig config = Configs.parse(CONFIG);

        ModelInfo info = config.deployments().getFirst().info();
        assertThat(info.baseModel()).contains("azure/gpt-4o");
        assertThat(info.inputCostPerToken()).hasValue(0.0000025);
        assertThat(info.outputCostPerToken()).hasValue(0.00001);
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void checkConfigPrintsThem() throws ConfigException {
        assertThat(ConfigPrinter.print(Configs.parse(CONFIG))).contains("""
                    model_info:
                      id: azure-eu
                      base_model: azure/gpt-4o
                      input_cost_per_token: 0.0000025
                      output_cost_per_token: 0.00001
                """);
    }

    @Test
    void aNegativePriceOrAnEmptyBaseModelIsAProblem() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info: {base_model: "", output_cost_per_token: -1}
                """)).containsExactly(
                "model_list[0].model_info.base_model: \"\" (expected: a non-empty string)",
                "model_list[0].model_info.output_cost_per_token: -1 (expected: >= 0)");
    }
}
