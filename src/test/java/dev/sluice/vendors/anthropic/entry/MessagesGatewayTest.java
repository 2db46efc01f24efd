package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import dev.sluice.wire.SseEvents;
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

    @Test
    void anthropicsOwnBlocksAndToolsReachAnthropicAndAreRefusedByNameElsewhere() throws IOException {
        try (MockUpstream gpt = MockUpstream.start(MockOptions.defaults("gpt", MockMode.OK));
                MockUpstream claude = MockUpstream.start(MockOptions.defaults("claude", MockMode.OK).withApi(MockApi.ANTHROPIC));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: claude, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '%s', api_key: k}}
                          - {model_name: gpt, litellm_params: {model: openai/gpt-4o, api_base: '%s'}}
                        router_settings: {num_retries: 0}
                        """.formatted(claude.baseUrl(), gpt.baseUrl()))) {
            String body = """
                    {"model":"%s","max_tokens":64,"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":3}],
                     "messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain",
                       "data":"a short document"}},{"type":"text","text":"what does it say?"}]}]}""";

            HttpResponse<String> served = gateway.post("/v1/messages", body.formatted("claude"));
            assertThat(served.statusCode()).isEqualTo(200);
            JsonNode sent = claude.receivedBodies().getFirst();
            assertThat(sent.at("/tools/0/type").asText()).isEqualTo("web_search_20250305");
            assertThat(sent.at("/messages/0/content/0/type").asText()).isEqualTo("document");

            HttpResponse<String> refused = gateway.post("/v1/messages", body.formatted("gpt"));
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(json(refused).at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(json(refused).at("/error/message").asText()).contains("another vendor than Anthropic");
            assertThat(gpt.receivedBodies()).isEmpty();
        }
    }

    @Test
    void anAnthropicErrorEventMidStreamReachesTheCallerInAnthropicsOwnWords() {
        try (ScriptedUpstream breaking = ScriptedUpstream.always("breaking", Reply.stream(End.COMPLETE,
                        Chunk.now("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\","
                                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"c\",\"content\":[],"
                                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"),
                        Chunk.now("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"),
                        Chunk.now("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                                + "\"message\":\"Overloaded\"}}\n\n")));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: claude, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '%s', api_key: k}}
                        router_settings: {num_retries: 0}
                        """.formatted(breaking.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/messages", ASK.formatted("claude", true));

            assertThat(response.statusCode()).isEqualTo(200);
            List<SseEvents.SseEvent> events = SseEvents.read(Buffer.buffer(response.body()));
            assertThat(events).extracting(SseEvents.SseEvent::name).containsExactly("message_start", "content_block_start", "error");
            assertThat(events.getLast().data()).contains("overloaded_error").contains("Overloaded");
        }
    }

    @Test
    void aSilentStreamKeepsTheCallerHearingPingsUntilItsStreamTimeout() {
        String chunk = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n";
        try (ScriptedUpstream stalling = ScriptedUpstream.always("stalling", Reply.stream(End.COMPLETE,
                        Chunk.now(chunk.formatted("{\"role\":\"assistant\",\"content\":\"Hel\"}", "null")),
                        new Chunk(java.time.Duration.ofSeconds(5), chunk.formatted("{\"content\":\"lo\"}", "\"stop\""))));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: claude, litellm_params: {model: openai/gpt-4o, api_base: '%s', stream_timeout: 1}}
                        router_settings: {num_retries: 0}
                        """.formatted(stalling.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/messages", ASK.formatted("claude", true));

            List<String> names = SseEvents.read(Buffer.buffer(response.body())).stream().map(SseEvents.SseEvent::name).toList();
            assertThat(names.getLast()).as("the stall ends the stream at its 1 s stream_timeout").isEqualTo("error");
            assertThat(names.subList(names.indexOf("content_block_delta"), names.size() - 1))
                    .as("pings every 0.5 s of silence before it").contains("ping");
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
