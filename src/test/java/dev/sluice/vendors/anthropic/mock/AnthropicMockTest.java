package dev.sluice.vendors.anthropic.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Anthropic mock's wire details that an SDK hides: the exact event order, refusals of bad bodies, slow and hung answers. */
class AnthropicMockTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static MockUpstream start(MockMode mode) {
        return MockUpstream.start(MockOptions.defaults("claude", mode).withApi(MockApi.ANTHROPIC).withDelay(Duration.ofMillis(300)));
    }

    private static HttpResponse<String> post(MockUpstream mock, String body, Duration timeout) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(mock.baseUrl() + "/messages")).timeout(timeout)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.replace('\'', '"'))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> eventNames(String sse) {
        List<String> names = new ArrayList<>();
        for (String line : sse.split("\n")) {
            if (line.startsWith("event: ")) {
                names.add(line.substring(7));
            }
        }
        return names;
    }

    @Test
    void aStreamFollowsAnthropicsEventOrder() throws Exception {
        try (MockUpstream mock = start(MockMode.OK)) {
            HttpResponse<String> response = post(mock, """
                    {'model':'c','max_tokens':10,'stream':true,'thinking':{'type':'enabled','budget_tokens':1024},
                     'messages':[{'role':'user','content':'two words'}]}""", Duration.ofSeconds(5));

            assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
            assertThat(eventNames(response.body())).containsExactly("message_start", "content_block_start", "ping",
                    "content_block_delta", "content_block_delta", "content_block_stop",
                    "content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_delta",
                    "content_block_delta", "content_block_stop", "message_delta", "message_stop");
            assertThat(response.body()).contains("\"signature_delta\"").contains("\"text_delta\"").contains("\"stop_reason\":\"end_turn\"");
        }
    }

    @Test
    void aWholeAnswerReportsTheCacheWhenCachingIsAsked() throws Exception {
        try (MockUpstream mock = start(MockMode.OK)) {
            JsonNode answer = MAPPER.readTree(post(mock, """
                    {'model':'c','max_tokens':10,'system':[{'type':'text','text':'a long system prompt','cache_control':{'type':'ephemeral'}}],
                     'messages':[{'role':'user','content':'hi'}]}""", Duration.ofSeconds(5)).body());

            assertThat(answer.get("type").asText()).isEqualTo("message");
            assertThat(answer.at("/usage/cache_read_input_tokens").asInt()).isEqualTo(3);
            assertThat(answer.at("/usage/input_tokens").asInt()).isEqualTo(3);
            assertThat(answer.at("/usage/cache_creation_input_tokens").asInt()).isZero();
        }
    }

    @Test
    void aBodyWithoutMaxTokensIsRefusedAsAnthropicRefusesIt() throws Exception {
        try (MockUpstream mock = start(MockMode.OK)) {
            HttpResponse<String> response = post(mock, "{'model':'c','messages':[{'role':'user','content':'hi'}]}", Duration.ofSeconds(5));

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(MAPPER.readTree(response.body()).at("/error/message").asText()).isEqualTo("[claude] max_tokens: Field required");
            assertThat(post(mock, "not json", Duration.ofSeconds(5)).statusCode()).isEqualTo(400);
        }
    }

    @Test
    void slowAnswersLateAndHangNever() throws Exception {
        try (MockUpstream slow = start(MockMode.SLOW); MockUpstream hang = start(MockMode.HANG)) {
            String body = "{'model':'c','max_tokens':10,'messages':[{'role':'user','content':'hi'}]}";
            long started = System.nanoTime();
            assertThat(post(slow, body, Duration.ofSeconds(5)).statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));

            assertThatThrownBy(() -> post(hang, body, Duration.ofMillis(300))).isInstanceOf(HttpTimeoutException.class);
        }
    }

    @Test
    void anUnknownPathIsAnthropicsNotFound() throws Exception {
        try (MockUpstream mock = start(MockMode.OK)) {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(mock.baseUrl() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(MAPPER.readTree(response.body()).at("/error/type").asText()).isEqualTo("not_found_error");
            assertThat(MockApi.fromCliName("anthropic")).isEqualTo(MockApi.ANTHROPIC);
        }
    }
}
