package dev.sluice.ingress.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.json.Json;
import dev.sluice.mock.MockApi;
import dev.sluice.mock.MockMode;
import dev.sluice.mock.MockOptions;
import dev.sluice.mock.MockUpstream;
import dev.sluice.sse.SseEvents;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code /v1/messages} over raw HTTP, as Claude Code calls it: its query, its headers, keys in
 * either header, the routed headers every answer carries, and a stream broken off.
 */
class MessagesGatewayTest {
    private static final String MASTER = "sk-master-4321";
    private static final String ASK = """
            {"model":"%s","max_tokens":64,"stream":%s,"messages":[{"role":"user","content":"hello there"}]}""";

    private static TestGateway gateway(MockUpstream gpt, String general) {
        return TestGateway.start("""
                model_list:
                  - {model_name: claude-sonnet-4-5, litellm_params: {model: openai/gpt-4o, api_base: '%1$s'}}
                  - {model_name: other, litellm_params: {model: openai/gpt-4o, api_base: '%1$s'}}
                router_settings: {num_retries: 0}
                %2$s
                """.formatted(gpt.baseUrl(), general));
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    @Test
    void claudeCodesCallIsAnsweredWithTheRoutedHeaders() throws IOException {
        try (MockUpstream gpt = MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
                TestGateway gateway = gateway(gpt, "")) {
            HttpResponse<String> response = gateway.post("/v1/messages?beta=true", ASK.formatted("claude-sonnet-4-5", false),
                    "anthropic-version", "2023-06-01", "anthropic-beta", "claude-code-20250219", "x-api-key", "anything");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(json(response).path("type").asText()).isEqualTo("message");
            assertThat(json(response).path("role").asText()).isEqualTo("assistant");
            assertThat(response.headers().firstValue("x-litellm-model-group")).contains("claude-sonnet-4-5");
            assertThat(response.headers().firstValue("x-litellm-model-id")).isPresent();
            assertThat(response.headers().firstValue("x-litellm-attempted-fallbacks")).contains("0");
            assertThat(gpt.receivedHeaders().getFirst()).doesNotContainKey("anthropic-beta");
        }
    }

    @Test
    void aStreamBrokenOffEndsWithAnthropicsErrorEvent() {
        try (MockUpstream gpt = MockUpstream.start(MockOptions.defaults("gpt", MockMode.CUT));
                TestGateway gateway = gateway(gpt, "")) {
            HttpResponse<String> response = gateway.post("/v1/messages", ASK.formatted("claude-sonnet-4-5", true));

            assertThat(response.statusCode()).isEqualTo(200);
            List<SseEvents.SseEvent> events = SseEvents.read(Buffer.buffer(response.body()));
            assertThat(events.getFirst().name()).isEqualTo("message_start");
            assertThat(events.getLast().name()).isEqualTo("error");
            assertThat(events.getLast().data()).contains("\"type\":\"error\"").contains("\"api_error\"").contains("broke off");
            assertThat(events).extracting(SseEvents.SseEvent::name).doesNotContain("message_stop");
        }
    }

    @Test
    void aStreamFailingBeforeItsFirstEventIsAnErrorAnswer() throws IOException {
        try (MockUpstream gpt = MockUpstream.start(MockOptions.defaults("gpt", MockMode.RATELIMIT));
                TestGateway gateway = gateway(gpt, "")) {
            HttpResponse<String> response = gateway.post("/v1/messages", ASK.formatted("claude-sonnet-4-5", true));

            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(json(response).at("/error/type").asText()).isEqualTo("rate_limit_error");
            assertThat(response.headers().firstValue("x-litellm-model-group")).contains("claude-sonnet-4-5");
        }
    }

    @StoreTest
    void aKeyIsReadFromEitherHeaderAndAGroupItMayNotUseIsForbidden(TestDatabase store) throws IOException {
        try (MockUpstream gpt = MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
                TestGateway gateway = gateway(gpt, "general_settings:\n  master_key: " + MASTER + "\n  "
                        + store.generalSetting())) {
            String raw = "sk-claude-only-0001";
            new KeyRepository(store.database()).insert(VirtualKey.builder(VirtualKey.hash(raw), VirtualKey.maskedName(raw),
                    Instant.now()).models(List.of("claude-sonnet-4-5")).build());

            assertThat(gateway.post("/v1/messages", ASK.formatted("claude-sonnet-4-5", false), "x-api-key", raw).statusCode())
                    .isEqualTo(200);
            assertThat(gateway.post("/v1/messages", ASK.formatted("claude-sonnet-4-5", false), "Authorization", "Bearer " + raw)
                    .statusCode()).isEqualTo(200);
            HttpResponse<String> denied = gateway.post("/v1/messages", ASK.formatted("other", false), "x-api-key", raw);
            assertThat(denied.statusCode()).isEqualTo(403);
            assertThat(json(denied).at("/error/type").asText()).isEqualTo("permission_error");
            assertThat(json(denied).at("/error/message").asText()).contains("Tried to access other");
            HttpResponse<String> unknown = gateway.post("/v1/messages", ASK.formatted("nope", false), "x-api-key", raw);
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(json(unknown).at("/error/message").asText()).contains("claude-sonnet-4-5").doesNotContain("other");
            HttpResponse<String> noKey = gateway.post("/v1/messages", ASK.formatted("claude-sonnet-4-5", false));
            assertThat(noKey.statusCode()).isEqualTo(401);
            assertThat(json(noKey).at("/error/type").asText()).isEqualTo("authentication_error");
            assertThat(gateway.post("/v1/messages/count_tokens", """
                    {"model":"other","messages":[{"role":"user","content":"hi"}]}""", "x-api-key", raw).statusCode())
                    .isEqualTo(403);
        }
    }
}
