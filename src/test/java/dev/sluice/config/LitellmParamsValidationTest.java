package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Configs;
import dev.sluice.vendors.Providers;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every rule on litellm_params, each on both sides of its boundary. */
class LitellmParamsValidationTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "accepted", textBlock = """
            weight: -1                        | model_list[0].litellm_params.weight: -1 (expected: >= 0)
            weight: 0                         | accepted
            weight: 0.5                       | accepted
            weight: "abc"                     | model_list[0].litellm_params.weight: "abc" (expected: a number >= 0)
            weight: .inf                      | model_list[0].litellm_params.weight: .inf (expected: a number >= 0)
            order: 0                          | model_list[0].litellm_params.order: 0 (expected: >= 1)
            order: 1                          | accepted
            order: 1.5                        | model_list[0].litellm_params.order: 1.5 (expected: an integer >= 1)
            order: first                      | model_list[0].litellm_params.order: "first" (expected: an integer >= 1)
            order: "2"                        | accepted
            rpm: -1                           | model_list[0].litellm_params.rpm: -1 (expected: >= 0)
            rpm: 0                            | accepted
            rpm: 1.5                          | model_list[0].litellm_params.rpm: 1.5 (expected: an integer >= 0)
            rpm: "abc"                        | model_list[0].litellm_params.rpm: "abc" (expected: an integer >= 0)
            rpm: true                         | model_list[0].litellm_params.rpm: true (expected: an integer >= 0)
            rpm: [1]                          | model_list[0].litellm_params.rpm: a list (expected: an integer >= 0)
            rpm: 2147483647                   | accepted
            rpm: 2147483648                   | model_list[0].litellm_params.rpm: 2147483648 (expected: <= 2147483647)
            rpm: "100"                        | accepted
            tpm: -1                           | model_list[0].litellm_params.tpm: -1 (expected: >= 0)
            tpm: 0                            | accepted
            timeout: 0                        | model_list[0].litellm_params.timeout: 0 (expected: > 0)
            timeout: -1                       | model_list[0].litellm_params.timeout: -1 (expected: > 0)
            timeout: 0.5                      | accepted
            timeout: "abc"                    | model_list[0].litellm_params.timeout: "abc" (expected: a number of seconds > 0)
            stream_timeout: 0                 | model_list[0].litellm_params.stream_timeout: 0 (expected: > 0)
            stream_timeout: 0.001             | accepted
            max_retries: -1                   | model_list[0].litellm_params.max_retries: -1 (expected: >= 0)
            max_retries: 0                    | accepted
            cooldown_time: -0.1               | model_list[0].litellm_params.cooldown_time: -0.1 (expected: >= 0)
            cooldown_time: 0                  | accepted
            input_cost_per_token: -0.000001   | model_list[0].litellm_params.input_cost_per_token: -0.000001 (expected: >= 0)
            input_cost_per_token: 0           | accepted
            output_cost_per_token: -1         | model_list[0].litellm_params.output_cost_per_token: -1 (expected: >= 0)
            output_cost_per_token: 0          | accepted
            api_base: localhost:8000          | model_list[0].litellm_params.api_base: localhost:8000 (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)
            api_base: /v1                     | model_list[0].litellm_params.api_base: /v1 (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)
            api_base: ftp://files.example.com | model_list[0].litellm_params.api_base: ftp://files.example.com (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)
            api_base: http://user:s3cret@h.example.com | model_list[0].litellm_params.api_base: http://***@h.example.com (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)
            api_base: http://localhost:8000   | accepted
            api_base: https://x.example.com/v1| accepted
            api_version: ""                   | model_list[0].litellm_params.api_version: "" (expected: a non-empty string)
            api_version: 2024-06-01           | accepted
            api_key: ""                       | model_list[0].litellm_params.api_key: **** (expected: a non-empty string)
            api_key: [a, b]                   | model_list[0].litellm_params.api_key: **** (expected: a non-empty string)
            api_key: sk-1                     | accepted
            tags: [paid]                      | accepted
            tags: [paid, default]             | accepted
            tags: []                          | accepted
            tags: [2024]                      | accepted
            tags: paid                        | model_list[0].litellm_params.tags: "paid" (expected: a list, each item a non-empty string of at most 255 characters without surrounding spaces)
            tags: {paid: true}                | model_list[0].litellm_params.tags: a map (expected: a list, each item a non-empty string of at most 255 characters without surrounding spaces)
            tags: [paid, ""]                  | model_list[0].litellm_params.tags[1]: "" (expected: a non-empty string)
            tags: [paid, ~]                   | model_list[0].litellm_params.tags[1]: missing (expected: a non-empty string of at most 255 characters without surrounding spaces)
            tags: [" paid"]                   | model_list[0].litellm_params.tags[0]: " paid" (expected: a non-empty string of at most 255 characters without surrounding spaces)
            tags: [[paid]]                    | model_list[0].litellm_params.tags[0]: a list (expected: a non-empty string)
            """)
    void checksEachParam(String param, String problem) {
        String yaml = Configs.withParam(param);
        if (problem == null) {
            assertThat(Configs.problemsOrNone(yaml)).isEmpty();
        } else {
            assertThat(Configs.problems(yaml)).containsExactly(problem);
        }
    }

    @Test
    void fractionalSecondsBecomeExactDurations() throws ConfigException {
        LitellmParams params = Configs.parse(Configs.withParam("timeout: 0.25")).deployments().getFirst().params();

        assertThat(params.attempts().timeout()).contains(Duration.ofMillis(250));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            gpt-4o                                  | openai      | gpt-4o
            openai/gpt-4o                           | openai      | gpt-4o
            azure/my-deployment                     | azure       | my-deployment
            hosted_vllm/meta-llama/Llama-3-8B       | hosted_vllm | meta-llama/Llama-3-8B
            """)
    void splitsTheProviderPrefixOffTheModel(String model, String provider, String providerModel) throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: m
                    litellm_params:
                      model: %s
                """.formatted(model);

        LitellmParams params = Configs.parse(yaml).deployments().getFirst().params();

        assertThat(params.model()).isEqualTo(model);
        assertThat(params.provider()).isEqualTo(provider);
        assertThat(params.providerModel()).isEqualTo(providerModel);
    }

    @Test
    void leavesOutADeploymentOfAProviderSluiceCannotCallAndListsIt() throws ConfigException {
        SluiceConfig config = ConfigLoader.parse(UNSERVED, Map.of(), Providers.knownPrefixes());

        assertThat(config.deployments()).extracting(Deployment::modelName).containsExactly("a", "b");
        assertThat(config.unserved()).containsExactly(new UnservedDeployment(2, "c", "sagemaker/my-endpoint", "sagemaker"));
        assertThat(config.unserved().getFirst().describe()).isEqualTo("model_list[2] (model_name c, model sagemaker/my-endpoint):"
                + " provider 'sagemaker' is not served by Sluice; the deployment is left out");
    }

    @Test
    void aServedDeploymentKeepsItsPlaceInTheFileForItsProblems() throws ConfigException {
        SluiceConfig config = ConfigLoader.parse("""
                model_list:
                  - {model_name: x, litellm_params: {model: sagemaker/a}}
                  - {model_name: a, litellm_params: {model: openai/gpt-4o}}
                  - {model_name: y, litellm_params: {model: petals/b}}
                  - {model_name: z, litellm_params: {model: petals/c}}
                  - {model_name: b, litellm_params: {model: hosted_vllm/m}}
                """, Map.of(), Providers.knownPrefixes());

        assertThat(config.fileIndex(0)).isEqualTo(1);
        assertThat(config.fileIndex(1)).isEqualTo(4);
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).misconfigurations(config.deployments(), config::fileIndex))
                .singleElement().asString().startsWith("model_list[4].litellm_params.api_base: missing");
    }

    @Test
    void strictRefusesADeploymentOfAProviderSluiceCannotCall() {
        assertThatThrownBy(() -> ConfigLoader.parse(UNSERVED, Map.of(), Providers.knownPrefixes(), true))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).singleElement().asString()
                        .startsWith("model_list[2].litellm_params.model: sagemaker/my-endpoint (expected: a provider Sluice supports: ")
                        .contains("azure", "openai"));
    }

    private static final String UNSERVED = """
            model_list:
              - model_name: a
                litellm_params: {model: openai/gpt-4o}
              - model_name: b
                litellm_params: {model: azure/gpt-4o, api_base: "https://x.openai.azure.com"}
              - model_name: c
                litellm_params: {model: sagemaker/my-endpoint}
            """;

    @Test
    void rejectsAProviderPrefixWithNothingAfterIt() {
        assertThat(Configs.problems("""
                model_list:
                  - model_name: a
                    litellm_params: {model: azure/}
                """)).containsExactly("model_list[0].litellm_params.model: azure/ (expected: a model name after \"azure/\")");
    }

    @Test
    void readsTheOrder() throws ConfigException {
        LitellmParams params = Configs.parse(Configs.withParam("order: 2")).deployments().getFirst().params();

        assertThat(params.order()).hasValue(2);
    }
}
