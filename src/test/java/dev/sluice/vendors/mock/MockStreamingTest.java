package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MockStreamingTest {

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void chatStreamSendsOneChunkPerWordThenStopThenDone() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/chat/completions",
                UpstreamClient.chatBody("gpt-4o", "where is my parcel", true));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
        List<String> data = dataLines(response.body());
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(UpstreamClient::json).toList();
        // "[primary]" " you" " said:" " where" " is" " my" " parcel", then the finishing chunk
        assertThat(chunks).hasSize(8);
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.path("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(chunk.path("model").asText()).isEqualTo("gpt-4o");
            assertThat(chunk.path("id").asText()).isEqualTo(chunks.get(0).path("id").asText());
        });
        assertThat(chunks.get(0).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(chunks.get(1).at("/choices/0/delta").has("role")).isFalse();
        String joined = chunks.stream().map(chunk -> chunk.at("/choices/0/delta/content").asText(""))
                .collect(Collectors.joining());
        assertThat(joined).isEqualTo("[primary] you said: where is my parcel");
        assertThat(chunks.subList(0, 7)).allSatisfy(chunk ->
                assertThat(chunk.at("/choices/0/finish_reason").isNull()).isTrue());
        JsonNode last = chunks.get(7);
        assertThat(last.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(last.at("/choices/0/delta").isEmpty()).isTrue();
        assertThat(chunks).noneSatisfy(chunk -> assertThat(chunk.has("usage")).isTrue());
    }

    @Test
    void everyEventEndsWithABlankLine() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        String body = client.post(mock, "/v1/chat/completions", UpstreamClient.chatBody("m", "hi", true)).body();

        assertThat(body).startsWith("data: {").endsWith("data: [DONE]\n\n");
        assertThat(body.split("\n\n")).allSatisfy(event -> assertThat(event).startsWith("data: ").doesNotContain("\n"));
    }

    @Test
    void includeUsageAddsAUsageChunkWithEmptyChoicesBeforeDone() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/chat/completions", """
                {"model":"m","stream":true,"stream_options":{"include_usage":true},
                 "messages":[{"role":"user","content":"12345678"}]}""");

        List<String> data = dataLines(response.body());
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        JsonNode usageChunk = json(data.get(data.size() - 2));
        assertThat(usageChunk.path("choices")).isEmpty();
        // "[primary] you said: 12345678" is 28 characters -> 7 tokens; the prompt 8 -> 2.
        assertThat(usageChunk.path("usage")).isEqualTo(
                json("{\"prompt_tokens\":2,\"completion_tokens\":7,\"total_tokens\":9}"));
        assertThat(json(data.get(data.size() - 3)).at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void includeUsageFalseSendsNoUsageChunk() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/chat/completions", """
                {"model":"m","stream":true,"stream_options":{"include_usage":false},
                 "messages":[{"role":"user","content":"hi"}]}""");

        assertThat(response.body()).doesNotContain("usage");
    }

    @Test
    void completionStreamsTextChunks() {
        MockUpstream mock = mocks.start("backup", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"go\",\"stream\":true,\"stream_options\":{\"include_usage\":true}}");

        List<String> data = dataLines(response.body());
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        List<JsonNode> chunks = data.subList(0, data.size() - 1).stream().map(UpstreamClient::json).toList();
        assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.path("object").asText()).isEqualTo("text_completion"));
        String joined = chunks.stream().map(chunk -> chunk.at("/choices/0/text").asText(""))
                .collect(Collectors.joining());
        assertThat(joined).isEqualTo("[backup] you said: go");
        assertThat(chunks.get(chunks.size() - 2).at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(chunks.get(chunks.size() - 1).path("usage").path("total_tokens").asInt()).isPositive();
    }

    @Test
    void aSlowStreamFlushesItsFirstChunkLongBeforeItsLast() throws IOException {
        // 400 ms before the first chunk, then delay/10 = 40 ms between events: the 8 after it take 320 ms.
        MockUpstream mock = mocks.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(400)));
        long sent = System.nanoTime();

        HttpResponse<InputStream> response = client.postStreaming(mock, "/v1/chat/completions",
                UpstreamClient.chatBody("m", "where is my parcel", true));
        List<Long> arrivals = new ArrayList<>();
        List<String> data = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("data: ")) {
                    arrivals.add(System.nanoTime());
                    data.add(line.substring(6));
                }
            }
        }

        assertThat(data).hasSize(9).endsWith("[DONE]");
        assertThat(millis(arrivals.get(0) - sent)).isGreaterThanOrEqualTo(350);
        assertThat(millis(arrivals.get(arrivals.size() - 1) - arrivals.get(0))).isGreaterThanOrEqualTo(250);
        assertThat(mock.cancelledStreams()).isZero();
    }

    @Test
    void aSlowCallWaitsTheDelayAndThenAnswersOk() {
        MockUpstream mock = mocks.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(300)));
        long sent = System.nanoTime();

        HttpResponse<String> response = client.chat(mock, "hi");

        assertThat(millis(System.nanoTime() - sent)).isGreaterThanOrEqualTo(280);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).at("/choices/0/message/content").asText()).isEqualTo("[slow] you said: hi");
    }

    @Test
    void embeddingsIgnoreTheStreamFlag() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/embeddings",
                "{\"model\":\"e\",\"input\":\"x\",\"stream\":true}");

        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(json(response).path("data")).hasSize(1);
    }

    private static List<String> dataLines(String body) {
        return body.lines().filter(line -> line.startsWith("data: ")).map(line -> line.substring(6)).toList();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
