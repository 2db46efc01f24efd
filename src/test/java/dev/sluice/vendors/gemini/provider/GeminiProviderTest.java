package dev.sluice.vendors.gemini.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.model.Operation;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.EmbeddingAnswersTest;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a {@code gemini/} deployment's calls are laid out: URL, key header, body. */
public class GeminiProviderTest {

    public static Deployment deployment(String params) {
        try {
            return ConfigLoader.parse("model_list:\n  - model_name: g\n    litellm_params: {" + params + "}\n",
                    Map.of(), Providers.knownPrefixes()).deployments().getFirst();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private final GeminiProvider provider = new GeminiProvider(Map.of("GEMINI_API_KEY", "env-key"), TimeSource.system().clock());

    @Test
    void chatGoesToGenerateContentOnGooglesHostWithTheKeyInItsHeader() {
        UpstreamRequest request = provider.request(deployment("model: gemini/gemini-2.0-flash, api_key: cfg-key"),
                Operation.CHAT_COMPLETIONS, body("{\"model\": \"gemini-2.0-flash\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"));
        assertThat(request.url()).isEqualTo("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent");
        assertThat(request.headers()).containsEntry("x-goog-api-key", "cfg-key");
        assertThat(new String(request.body(), StandardCharsets.UTF_8)).isEqualTo("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}]}");
    }

    @Test
    void aStreamGoesToStreamGenerateContentAsSseAndApiBaseReplacesTheHost() {
        UpstreamRequest request = provider.request(deployment("model: gemini/gemini-2.5-pro, api_base: 'http://127.0.0.1:9/'"),
                Operation.CHAT_COMPLETIONS, body("{\"model\": \"gemini-2.5-pro\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"));
        assertThat(request.url()).isEqualTo("http://127.0.0.1:9/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
        assertThat(request.headers()).containsEntry("x-goog-api-key", "env-key");
    }

    @Test
    void anApiBaseThatNamesTheVersionIsTheVersionRoot() {
        UpstreamRequest request = provider.request(deployment("model: gemini/m, api_base: 'https://proxy.example/gemini/v1'"),
                Operation.CHAT_COMPLETIONS, body("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"));
        assertThat(request.url()).isEqualTo("https://proxy.example/gemini/v1/models/m:generateContent");
    }

    @Test
    void embeddingsGoToBatchEmbedContentsAndTokenArraysAreRefused() {
        Deployment embed = deployment("model: gemini/text-embedding-004");
        UpstreamRequest request = provider.request(embed, Operation.EMBEDDINGS, body("{\"model\": \"text-embedding-004\", \"input\": \"hi\"}"));
        assertThat(request.url()).endsWith("/v1beta/models/text-embedding-004:batchEmbedContents");
        assertThat(new String(request.body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"requests\":[{\"model\":\"models/text-embedding-004\",\"content\":{\"parts\":[{\"text\":\"hi\"}]}}]}");
        assertThatThrownBy(() -> provider.request(embed, Operation.EMBEDDINGS, body("{\"input\": [[1, 2]]}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("input[0]");
    }

    @Test
    void base64AndFloatEncodingsAreTakenAndOthersRefused() {
        Deployment embed = deployment("model: gemini/text-embedding-004");
        for (String format : new String[] {"base64", "float"}) {
            UpstreamRequest request = provider.request(embed, Operation.EMBEDDINGS,
                    body("{\"input\": \"x\", \"encoding_format\": \"" + format + "\"}"));
            assertThat(request.droppedParams()).isEmpty();
            assertThat(new String(request.body(), StandardCharsets.UTF_8)).doesNotContain("encoding_format");
        }
        assertThatThrownBy(() -> provider.request(embed, Operation.EMBEDDINGS, body("{\"input\": \"x\", \"encoding_format\": \"int8\"}")))
                .isInstanceOfSatisfying(UnsupportedParam.class, e -> assertThat(e.param()).isEqualTo("encoding_format"));
    }

    @Test
    void aBase64EmbeddingDecodesBackToGooglesVectorAndItsPromptIsCounted() {
        ObjectNode request = body("{\"model\": \"embed\", \"input\": [\"one\", \"two words\"], \"encoding_format\": \"base64\"}");
        Buffer google = Buffer.buffer("{\"embeddings\": [{\"values\": [0.25, -1.5, 3.0]}, {\"values\": [0.5]}]}");

        JsonNode answer = GeminiEmbeddings.answer("text-embedding-004", google, request).orElseThrow().tree();

        assertThat(EmbeddingAnswersTest.floats(answer.at("/data/0/embedding").asText())).containsExactly(0.25f, -1.5f, 3.0f);
        assertThat(EmbeddingAnswersTest.floats(answer.at("/data/1/embedding").asText())).containsExactly(0.5f);
        // Google AI Studio reports no count: the prompt is counted, never answered as a free 0.
        assertThat(answer.at("/usage/prompt_tokens").asLong()).isPositive();
    }

    @Test
    void anUnsupportedParameterIsRefusedOrDroppedAndListed() {
        ObjectNode chat = body("{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"logprobs\": true}");
        assertThatThrownBy(() -> provider.request(deployment("model: gemini/m"), Operation.CHAT_COMPLETIONS, chat))
                .isInstanceOfSatisfying(UnsupportedParam.class, e -> assertThat(e.param()).isEqualTo("logprobs"));
        UpstreamRequest dropped = provider.request(deployment("model: gemini/m, drop_params: true"), Operation.CHAT_COMPLETIONS, chat);
        assertThat(dropped.droppedParams()).containsExactly("logprobs");
        assertThat(new String(dropped.body(), StandardCharsets.UTF_8)).doesNotContain("logprobs");
    }

    @Test
    void aDeploymentWithNoKeyAnywhereIsMisconfigured() {
        assertThat(new GeminiProvider(Map.of(), TimeSource.system().clock()).misconfiguration(deployment("model: gemini/m")))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("api_key: missing"));
        assertThat(provider.misconfiguration(deployment("model: gemini/m"))).isEmpty();
    }
}
