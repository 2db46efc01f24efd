package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shape of model_list and its entries, and the rules on model_info. */
class ModelListValidationTest {

    @Test
    void requiresAModelList() {
        assertThat(Configs.problems("router_settings: {num_retries: 1}"))
                .containsExactly("model_list: missing (expected: a non-empty list of deployments)");
    }

    @Test
    void rejectsAnEmptyModelList() {
        assertThat(Configs.problems("model_list: []"))
                .containsExactly("model_list: an empty list (expected: a non-empty list of deployments)");
    }

    @Test
    void rejectsAModelListThatIsNotAList() {
        assertThat(Configs.problems("model_list: {model_name: gpt-4o}"))
                .containsExactly("model_list: a map (expected: a non-empty list of deployments)");
    }

    @Test
    void requiresModelNameLitellmParamsAndModel() {
        String yaml = """
                model_list:
                  - litellm_params: {model: openai/gpt-4o}
                  - model_name: ""
                    litellm_params: {model: openai/gpt-4o}
                  - model_name: no-params
                  - model_name: params-not-a-map
                    litellm_params: openai/gpt-4o
                  - model_name: no-model
                    litellm_params: {api_base: "http://localhost:8000"}
                  - just a string
                  -
                """;

        assertThat(Configs.problems(yaml)).containsExactly(
                "model_list[0].model_name: missing (expected: a non-empty string)",
                "model_list[1].model_name: \"\" (expected: a non-empty string)",
                "model_list[2].litellm_params: missing (expected: a map with at least model)",
                "model_list[3].litellm_params: \"openai/gpt-4o\" (expected: a map with at least model)",
                "model_list[4].litellm_params.model: missing (expected: a non-empty string)",
                "model_list[5]: \"just a string\" (expected: a map with model_name and litellm_params)",
                "model_list[6]: missing (expected: a map with model_name and litellm_params)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "accepted", textBlock = """
            max_input_tokens: 0                               | model_list[0].model_info.max_input_tokens: 0 (expected: > 0)
            max_input_tokens: 1                               | accepted
            max_input_tokens: "lots"                          | model_list[0].model_info.max_input_tokens: "lots" (expected: an integer > 0)
            max_output_tokens: 0                              | model_list[0].model_info.max_output_tokens: 0 (expected: > 0)
            max_output_tokens: 1                              | accepted
            cooldown_time: -1                                 | model_list[0].model_info.cooldown_time: -1 (expected: >= 0)
            cooldown_time: 0                                  | accepted
            id: ""                                            | model_list[0].model_info.id: "" (expected: a non-empty string)
            id: eu-1                                          | accepted
            allowed_fails_policy: {RateLimitErrorAllowedFails: -1} | model_list[0].model_info.allowed_fails_policy.RateLimitErrorAllowedFails: -1 (expected: >= 0)
            allowed_fails_policy: {RateLimitErrorAllowedFails: 0}  | accepted
            allowed_fails_policy: {NotFoundErrorAllowedFails: 2}   | accepted
            allowed_fails_policy: [1]                         | model_list[0].model_info.allowed_fails_policy: a list (expected: a map from names like RateLimitErrorAllowedFails to integers >= 0)
            """)
    void checksEachModelInfoKey(String key, String problem) {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info:
                      %s
                """.formatted(key);
        if (problem == null) {
            assertThat(Configs.problemsOrNone(yaml)).isEmpty();
        } else {
            assertThat(Configs.problems(yaml)).containsExactly(problem);
        }
    }

    @Test
    void rejectsAnAllowedFailsNameLiteLlmDoesNotHave() {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info:
                      allowed_fails_policy: {ServerErrorAllowedFails: 1}
                """;

        assertThat(Configs.problems(yaml)).containsExactly(
                "model_list[0].model_info.allowed_fails_policy.ServerErrorAllowedFails: unknown name (expected: one of "
                        + "BadRequestErrorAllowedFails, AuthenticationErrorAllowedFails, TimeoutErrorAllowedFails, "
                        + "RateLimitErrorAllowedFails, ContentPolicyViolationErrorAllowedFails, "
                        + "InternalServerErrorAllowedFails, NotFoundErrorAllowedFails)");
    }

    @Test
    void readsModelInfo() throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info:
                      id: eu-1
                      max_input_tokens: 128000
                      max_output_tokens: 4096
                      allowed_fails_policy: {TimeoutErrorAllowedFails: 2, InternalServerErrorAllowedFails: 1}
                      cooldown_time: 12.5
                """;

        ModelInfo info = Configs.parse(yaml).deployments().getFirst().info();

        assertThat(info.id()).contains("eu-1");
        assertThat(info.maxInputTokens()).hasValue(128000);
        assertThat(info.maxOutputTokens()).hasValue(4096);
        assertThat(info.allowedFailsPolicy())
                .containsExactly(Map.entry("TimeoutErrorAllowedFails", 2), Map.entry("InternalServerErrorAllowedFails", 1));
        assertThat(info.cooldownTime()).contains(Duration.ofMillis(12_500));
    }

    @Test
    void reportsEveryProblemInOneException() {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      weight: -1
                      rpm: lots
                  - model_name: gpt-4o
                    litellm_params:
                      model: azure/gpt-4o
                      api_base: not-a-url
                      timeout: 0
                    model_info: {max_input_tokens: 0}
                router_settings:
                  num_retries: -2
                  routing_strategy: fastest
                general_settings:
                  max_request_size_mb: 0
                """;

        assertThat(Configs.problems(yaml)).containsExactly(
                "model_list[0].litellm_params.rpm: \"lots\" (expected: an integer >= 0)",
                "model_list[0].litellm_params.weight: -1 (expected: >= 0)",
                "model_list[1].litellm_params.api_base: not-a-url (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)",
                "model_list[1].litellm_params.timeout: 0 (expected: > 0)",
                "model_list[1].model_info.max_input_tokens: 0 (expected: > 0)",
                "router_settings.routing_strategy: fastest (expected: one of simple-shuffle, least-busy, "
                        + "usage-based-routing, usage-based-routing-v2, latency-based-routing, cost-based-routing)",
                "router_settings.num_retries: -2 (expected: >= 0)",
                "general_settings.max_request_size_mb: 0 (expected: > 0)");
    }
}
