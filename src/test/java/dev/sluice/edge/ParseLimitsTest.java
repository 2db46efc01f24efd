package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A model call's body is parsed within max_json_depth and max_json_tokens, and what it
 * parses into is held against the body budget beside its bytes; each refusal in its entry
 * API's own error shape, and nothing reaches the upstream.
 */
class ParseLimitsTest {
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.chat(upstream.baseUrl(), """
                max_json_depth: 32
                max_json_tokens: 50000
                max_buffered_request_mb: 2
                """);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    private static String messages(int count) {
        StringBuilder body = new StringBuilder("{\"model\":\"chat\",\"messages\":[");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":\"x\"}");
        }
        return body.append("],\"max_tokens\":5}").toString();
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return Json.parse(response.body().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBodyOfTooManyTokensIsA413InOpenAisShape() throws Exception {
        long before = upstream.requests();
        HttpResponse<String> refused = gateway.post("/v1/chat/completions", messages(10_000)); // 60,000 tokens

        assertThat(refused.statusCode()).isEqualTo(413);
        JsonNode error = json(refused).path("error");
        assertThat(error.path("code").asText()).isEqualTo("json_too_large");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).contains("max_json_tokens");
        assertThat(upstream.requests()).isEqualTo(before);
    }

    @Test
    void theSameOnAnthropicsRouteIsInAnthropicsShape() throws Exception {
        HttpResponse<String> refused = gateway.post("/v1/messages", messages(10_000), "anthropic-version", "2023-06-01");

        assertThat(refused.statusCode()).isEqualTo(413);
        JsonNode body = json(refused);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("message").asText()).contains("max_json_tokens");
    }

    @Test
    void nestingDeeperThanTheLimitIsA400AndToTheLimitIsServed() throws Exception {
        String deep = "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"metadata\":{\"a\":"
                + "[".repeat(40) + "]".repeat(40) + "}}";
        HttpResponse<String> refused = gateway.post("/v1/chat/completions", deep);

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused).path("error").path("code").asText()).isEqualTo("json_too_deep");

        String shallow = "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"metadata\":{\"a\":"
                + "[".repeat(29) + "]".repeat(29) + "}}"; // 32 deep with the body and metadata objects
        assertThat(gateway.post("/v1/chat/completions", shallow).statusCode()).isEqualTo(200);
    }

    @Test
    void aTreeThatCouldNeverFitTheBudgetIsA413AndIsNotHeld() throws Exception {
        // 7,000 messages: 42,000 tokens, under the token limit, but 2.7 MB of tree against a 2 MB budget.
        HttpResponse<String> refused = gateway.post("/v1/chat/completions", messages(7000));

        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(json(refused).path("error").path("message").asText()).contains("Parsed").contains("max_buffered_request_mb");
        gateway.awaitMetric("nothing is held", "sluice_request_body_bytes_held", 0);
    }

    @Test
    void anOrdinaryCallIsServedAndGivesBackWhatItHeld() {
        assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "hi")).statusCode()).isEqualTo(200);
        gateway.awaitMetric("the body and its tree are given back", "sluice_request_body_bytes_held", 0);
    }
}
