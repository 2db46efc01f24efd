package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each adapter's URL, headers and body as the upstream will receive them. */
class ProvidersTest {
    private static final ObjectNode BODY = JsonNodeFactory.instance.objectNode().put("model", "x");

    private static Deployment deployment(String params) throws Exception {
        return ConfigLoader.parse("model_list:\n  - model_name: g\n    litellm_params: {" + params + "}\n",
                Map.of(), Providers.knownPrefixes()).deployments().get(0);
    }

    @Test
    void openAiUsesItsDefaultBaseAndABearerKey() throws Exception {
        Deployment d = deployment("model: openai/gpt-4o, api_key: sk-1");
        UpstreamRequest r = Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.CHAT_COMPLETIONS, BODY);

        assertThat(r.url()).isEqualTo("https://api.openai.com/v1/chat/completions");
        assertThat(r.headers()).containsEntry("Authorization", "Bearer sk-1");
    }

    @Test
    void aModelWithoutPrefixIsOpenAi() throws Exception {
        Deployment d = deployment("model: gpt-4o-mini");

        assertThat(d.params().provider()).isEqualTo("openai");
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.EMBEDDINGS, BODY).url())
                .isEqualTo("https://api.openai.com/v1/embeddings");
    }

    @Test
    void providerKeyVariableFillsAMissingApiKey() throws Exception {
        Deployment d = deployment("model: groq/llama3");
        UpstreamRequest r = Providers.builtIn(Map.of("GROQ_API_KEY", "gsk-9"), Clock.systemUTC()).forDeployment(d).request(d, Operation.CHAT_COMPLETIONS, BODY);

        assertThat(r.url()).isEqualTo("https://api.groq.com/openai/v1/chat/completions");
        assertThat(r.headers()).containsEntry("Authorization", "Bearer gsk-9");
    }

    @Test
    void apiBaseWinsAndATrailingSlashIsDropped() throws Exception {
        Deployment d = deployment("model: hosted_vllm/qwen, api_base: 'http://10.0.0.5:8000/v1/'");
        UpstreamRequest r = Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.COMPLETIONS, BODY);

        assertThat(r.url()).isEqualTo("http://10.0.0.5:8000/v1/completions");
        assertThat(r.headers()).doesNotContainKey("Authorization");
    }

    @Test
    void ollamaGetsV1OnABareBase() throws Exception {
        Deployment d = deployment("model: ollama_chat/llama3, api_base: 'http://localhost:11434'");

        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.CHAT_COMPLETIONS, BODY).url())
                .isEqualTo("http://localhost:11434/v1/chat/completions");
    }

    @Test
    void selfHostedWithoutApiBaseIsAConfigProblem() throws Exception {
        Deployment d = deployment("model: hosted_vllm/qwen");

        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).misconfigurations(List.of(d)))
                .containsExactly("model_list[0].litellm_params.api_base: missing (expected: the server's base URL,"
                        + " e.g. http://host:8000/v1; provider 'hosted_vllm' has no default)");
    }

    @Test
    void azurePutsTheDeploymentInTheUrlAndTheKeyInApiKey() throws Exception {
        Deployment d = deployment("model: azure/gpt4o-eu, api_base: 'https://res.openai.azure.com/', api_key: az-1, api_version: '2024-06-01'");
        UpstreamRequest r = Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.CHAT_COMPLETIONS, BODY);

        assertThat(r.url()).isEqualTo("https://res.openai.azure.com/openai/deployments/gpt4o-eu/chat/completions?api-version=2024-06-01");
        assertThat(r.headers()).containsExactly(Map.entry("api-key", "az-1"));
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("\"model\"");
    }

    @Test
    void azureServesACallerOfTheResponsesApiAtItsOwnResponsesRoute() throws Exception {
        ObjectNode callers = (ObjectNode) dev.sluice.wire.Json.parse("{\"model\":\"g\",\"input\":\"hi\",\"fallbacks\":[\"x\"]}".getBytes());
        ModelRequest request = new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.OPENAI_RESPONSES, BODY, "g", false, Map.of(),
                callers, Optional.empty());
        Deployment old = deployment("model: azure/gpt4o-eu, api_base: 'https://res.openai.azure.com', api_key: az-1, api_version: '2024-06-01'");
        Deployment preview = deployment("model: azure/gpt4o-eu, api_base: 'https://res.openai.azure.com', api_version: '2025-04-01-preview'");
        Deployment bridged = deployment("model: azure/gpt4o-eu, api_base: 'https://res.openai.azure.com', use_responses_api: false");

        UpstreamRequest r = Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(old).request(old, request);
        assertThat(r.url()).as("an API version before the Responses API's is raised to its first")
                .isEqualTo("https://res.openai.azure.com/openai/responses?api-version=2025-03-01-preview");
        String sent = new String(r.body(), StandardCharsets.UTF_8);
        assertThat(sent).contains("\"model\":\"gpt4o-eu\"", "\"input\":\"hi\"").doesNotContain("fallbacks");
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(preview).request(preview, request).url())
                .endsWith("/openai/responses?api-version=2025-04-01-preview");
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(bridged).request(bridged, request).url())
                .contains("/openai/deployments/gpt4o-eu/chat/completions?");
    }

    @Test
    void azureDeploymentNamesArePathEncoded() throws Exception {
        Deployment d = deployment("model: azure/my deployment, api_base: 'https://res.openai.azure.com'");

        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d).request(d, Operation.CHAT_COMPLETIONS, BODY).url())
                .startsWith("https://res.openai.azure.com/openai/deployments/my%20deployment/chat/completions?");
    }

    @Test
    void azureReadsItsEnvironmentDefaults() throws Exception {
        Deployment d = deployment("model: azure/dep");
        Map<String, String> env = Map.of("AZURE_API_BASE", "https://env.openai.azure.com", "AZURE_API_KEY", "az-env", "AZURE_API_VERSION", "2025-01-01");
        UpstreamRequest r = Providers.builtIn(env, Clock.systemUTC()).forDeployment(d).request(d, Operation.EMBEDDINGS, BODY);

        assertThat(r.url()).isEqualTo("https://env.openai.azure.com/openai/deployments/dep/embeddings?api-version=2025-01-01");
        assertThat(r.headers()).containsEntry("api-key", "az-env");
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).misconfigurations(List.of(d))).hasSize(1);
    }

    @Test
    void forwardedBodyKeepsUnknownFieldsAndDropsSluiceOnes() {
        ObjectNode caller = JsonNodeFactory.instance.objectNode()
                .put("model", "group").put("num_retries", 3).put("mock_testing_rate_limit_error", true).put("seed", 5);

        ObjectNode forwarded = ForwardedBody.of(caller, "real-model");

        assertThat(forwarded.get("model").asText()).isEqualTo("real-model");
        assertThat(forwarded.get("seed").asInt()).isEqualTo(5);
        assertThat(forwarded.has("num_retries")).isFalse();
        assertThat(forwarded.has("mock_testing_rate_limit_error")).isFalse();
        assertThat(caller.get("model").asText()).as("the caller's body is left alone for later attempts").isEqualTo("group");
    }
}
