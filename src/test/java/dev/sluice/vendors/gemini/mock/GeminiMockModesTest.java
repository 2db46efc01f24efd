package dev.sluice.vendors.gemini.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockArgs;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.vendors.mock.MockUpstreams;
import dev.sluice.vendors.mock.RawConnection;
import dev.sluice.vendors.mock.UpstreamClient;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Gemini mock's modes over raw HTTP: Google's statuses, bodies and framing, and the connection faults. */
class GeminiMockModesTest {
    private static final String GENERATE = "/v1beta/models/gemini-2.0-flash:generateContent";
    private static final String STREAM = "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse";
    private static final String VERTEX = "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash:";
    private static final String HELLO = "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"hello\"}]}]}";

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    private MockUpstream start(MockMode mode) {
        return mocks.start(MockOptions.defaults("gem", mode).withApi(MockApi.GEMINI));
    }

    @Test
    void theCommandLineNamesTheGeminiApi() {
        MockArgs.Request request = MockArgs.parse(new String[] {"--api", "gemini", "--port", "0"});
        assertThat(request).isInstanceOfSatisfying(MockArgs.Serve.class,
                serve -> assertThat(serve.options().api()).isEqualTo(MockApi.GEMINI));
    }

    @Test
    void aRateLimitIsResourceExhaustedWithRetryInfoAndNoHeader() {
        HttpResponse<String> response = client.post(start(MockMode.RATELIMIT), GENERATE, HELLO);
        assertThat(response.statusCode()).isEqualTo(429);
        JsonNode error = UpstreamClient.json(response).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(429);
        assertThat(error.get("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.at("/details/1/@type").asText()).isEqualTo("type.googleapis.com/google.rpc.RetryInfo");
        assertThat(error.at("/details/1/retryDelay").asText()).isEqualTo("1s");
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
    }

    @Test
    void authWantsTheKeyOrTheBearerAndTellsMissingFromWrongCredentials() {
        MockUpstream mock = start(MockMode.AUTH);
        assertThat(client.post(mock, GENERATE, HELLO).statusCode()).isEqualTo(403);
        HttpResponse<String> wrong = client.post(mock, GENERATE, HELLO, "x-goog-api-key", "nope");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(UpstreamClient.json(wrong).at("/error/status").asText()).isEqualTo("UNAUTHENTICATED");
        assertThat(client.post(mock, GENERATE, HELLO, "x-goog-api-key", "mock-key").statusCode()).isEqualTo(200);
        assertThat(client.post(mock, VERTEX + "generateContent", HELLO, "Authorization", "Bearer mock-key").statusCode())
                .isEqualTo(200);
    }

    @Test
    void theFailingModesUseGooglesStatusWords() {
        assertThat(UpstreamClient.json(client.post(start(MockMode.FAIL), GENERATE, HELLO)).at("/error/status").asText())
                .isEqualTo("INTERNAL");
        HttpResponse<String> notFound = client.post(start(MockMode.NOTFOUND), GENERATE, HELLO);
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(UpstreamClient.json(notFound).at("/error/message").asText()).contains("models/gemini-2.0-flash is not found");
        HttpResponse<String> rejected = client.post(start(MockMode.REJECT), GENERATE, HELLO);
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(UpstreamClient.json(rejected).at("/error/status").asText()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void aStreamIsSseOfWholeResponsesEndingWithFinishReason() {
        HttpResponse<String> response = client.post(start(MockMode.OK), STREAM, HELLO);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        String[] events = response.body().split("\r\n\r\n");
        assertThat(events).hasSize(GeminiMockReplies.STREAM_CHUNKS);
        StringBuilder text = new StringBuilder();
        for (String event : events) {
            assertThat(event).startsWith("data: ");
            text.append(UpstreamClient.json(event.substring(6)).at("/candidates/0/content/parts/0/text").asText());
        }
        assertThat(text.toString()).isEqualTo("[gem] you said: hello");
        assertThat(UpstreamClient.json(events[events.length - 1].substring(6)).at("/candidates/0/finishReason").asText())
                .isEqualTo("STOP");
    }

    @Test
    void withoutAltSseAStreamIsOneJsonArray() {
        HttpResponse<String> response = client.post(start(MockMode.OK), VERTEX + "streamGenerateContent", HELLO);
        JsonNode array = UpstreamClient.json(response);
        assertThat(array.isArray()).isTrue();
        assertThat(array).hasSize(GeminiMockReplies.STREAM_CHUNKS);
    }

    @Test
    void aBlockedPromptIsA200WithPromptFeedbackInWholeAnswersAndStreams() {
        MockUpstream mock = start(MockMode.POLICY);
        String forbidden = "{\"contents\": [{\"role\": \"user\", \"parts\": [{\"text\": \"a forbidden thing\"}]}]}";
        HttpResponse<String> whole = client.post(mock, GENERATE, forbidden);
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(UpstreamClient.json(whole).at("/promptFeedback/blockReason").asText()).isEqualTo("SAFETY");
        assertThat(UpstreamClient.json(whole).has("candidates")).isFalse();
        HttpResponse<String> stream = client.post(mock, STREAM, forbidden);
        assertThat(stream.body()).startsWith("data: ").contains("\"blockReason\":\"SAFETY\"");
        assertThat(UpstreamClient.json(client.post(mock, GENERATE, HELLO)).has("candidates")).isTrue();
    }

    @Test
    void aLongPromptIsATokenLimitRefusal() {
        String longPrompt = "{\"contents\": [{\"parts\": [{\"text\": \"" + "x".repeat(2000) + "\"}]}]}";
        HttpResponse<String> response = client.post(start(MockMode.CONTEXT), GENERATE, longPrompt);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(UpstreamClient.json(response).at("/error/message").asText())
                .contains("exceeds the maximum number of tokens allowed (250)");
    }

    @Test
    void vertexEmbeddingsArePredictionsWithTokenCounts() {
        HttpResponse<String> response = client.post(start(MockMode.OK), VERTEX + "predict",
                "{\"instances\": [{\"content\": \"one\"}, {\"content\": \"two\"}]}");
        JsonNode predictions = UpstreamClient.json(response).get("predictions");
        assertThat(predictions).hasSize(2);
        assertThat(predictions.at("/0/embeddings/values")).hasSize(8);
        assertThat(predictions.at("/1/embeddings/statistics/token_count").asInt()).isPositive();
    }

    @Test
    void aCutStreamDropsTheConnectionAfterTwoEvents() {
        MockUpstream mock = start(MockMode.CUT);
        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(STREAM, HELLO);
            String received = connection.readToEnd();
            assertThat(connection.ended()).isTrue();
            assertThat(received.split("data: ", -1)).hasSize(3);
            assertThat(received).doesNotContain("finishReason");
        }
        assertThatThrownBy(() -> client.post(mock, GENERATE, HELLO)).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void aHangAnswersNothingUntilTheClientLeaves() {
        MockUpstream mock = start(MockMode.HANG);
        try (RawConnection connection = RawConnection.open(mock)) {
            connection.post(GENERATE, HELLO);
            Eventually.equal("requests", mock::requests, 1);
        }
        Eventually.equal("cancelled", mock::cancelledStreams, 1);
    }

    @Test
    void unknownPathsAndBadBodiesAreGoogleShapedErrors() {
        MockUpstream mock = start(MockMode.OK);
        HttpResponse<String> unknown = client.post(mock, "/v1beta/models/gemini:countTokens", HELLO);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(UpstreamClient.json(unknown).at("/error/status").asText()).isEqualTo("NOT_FOUND");
        HttpResponse<String> bad = client.post(mock, GENERATE, "[1, 2]");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(UpstreamClient.json(bad).at("/error/status").asText()).isEqualTo("INVALID_ARGUMENT");
    }
}
