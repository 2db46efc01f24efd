package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Request bodies held at once are bounded by general_settings.max_buffered_request_mb: past it
 * a call is a 503 with Retry-After, a body larger than the whole budget a 413, and every
 * body's bytes are given back when its call ends.
 */
class BufferedBodiesTest {
    private static final String HELD = "sluice_request_body_bytes_held";
    private static final String BIG = Chat.body("chat", "a".repeat(600 * 1024));
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(1500)));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                general_settings:
                  max_request_size_mb: 4
                  max_buffered_request_mb: 1
                """.formatted(upstream.baseUrl()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void bodiesPastTheBudgetAreA503WithRetryAfterAndAllBytesComeBack() throws Exception {
        List<HttpResponse<String>> answers = new CopyOnWriteArrayList<>();

        Concurrently.run(4, thread -> answers.add(gateway.post("/v1/chat/completions", BIG)));

        assertThat(answers).extracting(HttpResponse::statusCode).contains(200, 503).containsOnly(200, 503);
        HttpResponse<String> busy = answers.stream().filter(a -> a.statusCode() == 503).findFirst().orElseThrow();
        assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
        JsonNode error = Json.parse(busy.body().getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("server_busy");
        assertThat(error.path("type").asText()).isEqualTo("server_error");
        assertThat(error.has("param")).isTrue();
        assertThat(error.path("message").asText()).contains("max_buffered_request_mb");
        gateway.awaitMetric("every body's bytes are given back", HELD, 0);
    }

    @Test
    void aChunkedBodyLargerThanTheWholeBudgetIsA413OnceItPassesIt() throws Exception {
        byte[] big = Chat.body("chat", "a".repeat(1536 * 1024)).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                .build();

        HttpResponse<String> response = gateway.send(request);

        assertThat(response.statusCode()).isEqualTo(413);
        JsonNode error = Json.parse(response.body().getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("request_too_large");
        assertThat(error.path("message").asText()).isEqualTo("Request body is larger than the limit of 1048576 bytes "
                + "(the most request body bytes the gateway may buffer: general_settings.max_buffered_request_mb, "
                + "else an eighth of the heap).");
        gateway.awaitMetric("the chunked body's bytes are given back", HELD, 0);
    }

    @Test
    void aDeclaredBodyLargerThanTheWholeBudgetIsA413NotARetry() {
        HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "a".repeat(1536 * 1024)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
        gateway.awaitMetric("nothing is held", HELD, 0);
    }

    @Test
    void aCallerThatLeavesGivesItsBytesBack() throws Exception {
        int before = upstream.requests();

        gateway.rawChatThenHangUp("none", BIG);

        Eventually.until("the call reached the upstream or ended", Duration.ofSeconds(10),
                () -> upstream.requests() > before || gateway.metric(HELD) == 0);
        gateway.awaitMetric("the bytes of a call whose caller left are given back", HELD, 0);
    }
}
