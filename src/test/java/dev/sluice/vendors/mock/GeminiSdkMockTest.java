package dev.sluice.vendors.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.errors.ApiException;
import com.google.genai.errors.ClientException;
import com.google.genai.errors.ServerException;
import com.google.genai.types.EmbedContentResponse;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionDeclaration;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import com.google.genai.types.Schema;
import com.google.genai.types.Tool;
import com.google.genai.types.Type;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Google's own Java SDK against the Gemini mock: if the SDK reads the mock's answers, streams,
 * function calls, embeddings and errors, the mock speaks Gemini's real protocol.
 */
class GeminiSdkMockTest {
    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();

    private MockUpstream start(MockMode mode) {
        return mocks.start(MockOptions.defaults("gem", mode).withApi(MockApi.GEMINI));
    }

    private static Client client(MockUpstream mock, String key) {
        return Client.builder().apiKey(key)
                // One attempt: the SDK retries a 429 or a 5xx with backoff by default, close to a minute here.
                .httpOptions(HttpOptions.builder().baseUrl(root(mock)).retryOptions(HttpRetryOptions.builder().attempts(1)).build())
                .build();
    }

    @Test
    void aWholeAnswerIsReadWithItsUsage() {
        MockUpstream mock = start(MockMode.OK);
        GenerateContentResponse answer = client(mock, "mock-key").models.generateContent("gemini-2.0-flash", "Hello there", null);
        assertThat(answer.text()).isEqualTo("[gem] you said: Hello there");
        assertThat(answer.usageMetadata().orElseThrow().promptTokenCount()).hasValueSatisfying(n -> assertThat(n).isPositive());
        assertThat(mock.receivedHeaders().getLast()).containsEntry("x-goog-api-key", "mock-key");
    }

    @Test
    void aStreamIsReadChunkByChunk() {
        MockUpstream mock = start(MockMode.OK);
        List<String> pieces = new ArrayList<>();
        try (ResponseStream<GenerateContentResponse> stream =
                client(mock, "mock-key").models.generateContentStream("gemini-2.0-flash", "Stream me", null)) {
            for (GenerateContentResponse chunk : stream) {
                pieces.add(chunk.text());
            }
        }
        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(String.join("", pieces)).isEqualTo("[gem] you said: Stream me");
    }

    @Test
    void aDeclaredFunctionIsCalledWithItsRequiredArguments() {
        MockUpstream mock = start(MockMode.OK);
        FunctionDeclaration weather = FunctionDeclaration.builder().name("get_weather").description("Weather now")
                .parameters(Schema.builder().type(Type.Known.OBJECT)
                        .properties(Map.of("city", Schema.builder().type(Type.Known.STRING).build()))
                        .required(List.of("city")).build())
                .build();
        GenerateContentConfig config = GenerateContentConfig.builder()
                .tools(List.of(Tool.builder().functionDeclarations(List.of(weather)).build())).build();
        GenerateContentResponse answer = client(mock, "mock-key").models.generateContent("gemini-2.0-flash",
                "Weather in Paris?", config);
        List<FunctionCall> calls = answer.functionCalls();
        assertThat(calls).hasSize(1);
        assertThat(calls.getFirst().name()).contains("get_weather");
        assertThat(calls.getFirst().args().orElseThrow()).containsEntry("city", "mock");
    }

    @Test
    void embeddingsAreRead() {
        MockUpstream mock = start(MockMode.OK);
        EmbedContentResponse answer = client(mock, "mock-key").models.embedContent("text-embedding-004",
                List.of("one", "two"), null);
        assertThat(answer.embeddings().orElseThrow()).hasSize(2)
                .allSatisfy(e -> assertThat(e.values().orElseThrow()).hasSize(8));
    }

    @Test
    void vertexPathsAnswerTheSdkInVertexModeWithABearerToken() {
        MockUpstream mock = start(MockMode.AUTH);
        GoogleCredentials token = GoogleCredentials.create(new AccessToken("mock-key", new Date(System.currentTimeMillis() + 3_600_000)));
        Client vertex = Client.builder().vertexAI(true).project("proj").location("us-central1").credentials(token)
                // One attempt: the SDK retries a 429 or a 5xx with backoff by default, close to a minute here.
                .httpOptions(HttpOptions.builder().baseUrl(root(mock)).retryOptions(HttpRetryOptions.builder().attempts(1)).build())
                .build();
        assertThat(vertex.models.generateContent("gemini-2.0-flash", "Hi Vertex", null).text())
                .isEqualTo("[gem] you said: Hi Vertex");
        assertThat(mock.receivedHeaders().getLast()).containsEntry("authorization", "Bearer mock-key");
    }

    @Test
    void errorsAreTheSdksExceptionsWithGooglesCodesAndStatuses() {
        assertThat(failure(MockMode.FAIL)).isInstanceOf(ServerException.class)
                .satisfies(e -> assertThat(e.code()).isEqualTo(500)).satisfies(e -> assertThat(e.status()).isEqualTo("INTERNAL"));
        assertThat(failure(MockMode.RATELIMIT)).isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(e.code()).isEqualTo(429))
                .satisfies(e -> assertThat(e.status()).isEqualTo("RESOURCE_EXHAUSTED"));
        assertThat(failure(MockMode.NOTFOUND)).satisfies(e -> assertThat(e.code()).isEqualTo(404))
                .satisfies(e -> assertThat(e.status()).isEqualTo("NOT_FOUND"));
        assertThat(failure(MockMode.REJECT)).satisfies(e -> assertThat(e.status()).isEqualTo("INVALID_ARGUMENT"));
        assertThat(failure(MockMode.AUTH)).satisfies(e -> assertThat(e.code()).isEqualTo(401))
                .satisfies(e -> assertThat(e.status()).isEqualTo("UNAUTHENTICATED"));
    }

    @Test
    void aLongPromptIsRefusedForItsTokenCount() {
        MockUpstream mock = start(MockMode.CONTEXT);
        assertThatThrownBy(() -> client(mock, "mock-key").models.generateContent("gemini-2.0-flash", "x".repeat(5000), null))
                .isInstanceOfSatisfying(ClientException.class, e -> {
                    assertThat(e.code()).isEqualTo(400);
                    assertThat(e.message()).contains("exceeds the maximum number of tokens allowed");
                });
    }

    @Test
    void aBlockedPromptIsA200WithPromptFeedbackAndNoCandidates() {
        MockUpstream mock = start(MockMode.POLICY);
        GenerateContentResponse answer = client(mock, "mock-key").models.generateContent("gemini-2.0-flash",
                "something forbidden", null);
        assertThat(answer.candidates().orElse(List.of())).isEmpty();
        assertThat(answer.promptFeedback().orElseThrow().blockReason().orElseThrow().toString()).isEqualTo("SAFETY");
    }

    /** The mock's root: Gemini's paths carry their own API version. */
    static String root(MockUpstream mock) {
        return "http://127.0.0.1:" + mock.port();
    }

    private ApiException failure(MockMode mode) {
        MockUpstream mock = start(mode);
        try {
            client(mock, "wrong-key").models.generateContent("gemini-2.0-flash", "Hi", null);
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError("the SDK took a " + mode + " answer as a success");
    }
}
