package dev.sluice.vendors.anthropic.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * OpenAI-shaped chat calls through the gateway to {@code anthropic/} deployments whose
 * {@code api_base} is the Anthropic mock (or a scripted upstream), over real sockets.
 */
class AnthropicGatewayTest {
    private static final String KEY = "sk-ant-secret-0123456789";

    private static MockUpstream mock(String name, MockMode mode) {
        return MockUpstream.start(MockOptions.defaults(name, mode).withApi(MockApi.ANTHROPIC).withApiKey(KEY));
    }

    private static String deployment(String id, String apiBase, double weight) {
        return "  - {model_name: claude, litellm_params: {model: anthropic/claude-sonnet-4-5, api_base: '%s', api_key: %s, weight: %s},"
                .formatted(apiBase, KEY, weight) + " model_info: {id: " + id + "}}\n";
    }

    private static TestGateway gateway(String... deployments) {
        return TestGateway.start("model_list:\n" + String.join("", deployments));
    }

    private static JsonNode json(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes());
    }

    @Test
    void aWholeCallIsAnsweredAsOpenAis() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.AUTH);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hello there"}]}""");

            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = json(response);
            assertThat(body.get("object").asText()).isEqualTo("chat.completion");
            assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("[claude] you said: hello there");
            assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            assertThat(body.at("/usage/prompt_tokens").asInt()).as("19 characters of system and user text").isEqualTo(5);
            assertThat(body.at("/usage/total_tokens").asInt()).isGreaterThan(5);
            JsonNode sent = claude.receivedBodies().getFirst();
            assertThat(sent.get("model").asText()).isEqualTo("claude-sonnet-4-5");
            assertThat(sent.at("/system/0/text").asText()).isEqualTo("be brief");
            assertThat(sent.get("max_tokens").asInt()).as("the catalog's output limit for claude-sonnet-4-5").isEqualTo(64000);
            assertThat(claude.receivedHeaders().getFirst()).containsEntry("anthropic-version", "2023-06-01");
            assertThat(response.body()).doesNotContain(KEY);
        }
    }

    @Test
    void aStreamIsOpenAisChunksWithTheUsageAsked() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"stream some words"}]}""",
                    "anthropic-beta", "prompt-caching-2024-07-31");

            assertThat(response.statusCode()).isEqualTo(200);
            StringBuilder text = new StringBuilder();
            JsonNode usage = null;
            String finish = null;
            for (String line : response.body().split("\n")) {
                if (!line.startsWith("data: {")) {
                    continue;
                }
                JsonNode chunk = Json.parse(line.substring(6).getBytes());
                assertThat(chunk.get("object").asText()).isEqualTo("chat.completion.chunk");
                text.append(chunk.at("/choices/0/delta/content").asText(""));
                finish = chunk.at("/choices/0/finish_reason").isTextual() ? chunk.at("/choices/0/finish_reason").asText() : finish;
                usage = chunk.hasNonNull("usage") ? chunk.get("usage") : usage;
            }
            assertThat(text.toString()).isEqualTo("[claude] you said: stream some words");
            assertThat(finish).isEqualTo("stop");
            assertThat(usage).isNotNull();
            assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(5);
            assertThat(usage.get("completion_tokens").asInt()).isPositive();
            assertThat(response.body()).endsWith("data: [DONE]\n\n").doesNotContain(KEY);
            assertThat(claude.receivedBodies().getFirst().get("stream").asBoolean()).isTrue();
            assertThat(claude.receivedHeaders().getFirst()).containsEntry("anthropic-beta", "prompt-caching-2024-07-31");
        }
    }

    @Test
    void aToolCallMakesTheRoundTrip() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"parameters\":"
                    + "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}}}]";
            HttpResponse<String> asked = gateway.post("/v1/chat/completions",
                    "{\"model\":\"claude\",\"messages\":[{\"role\":\"user\",\"content\":\"weather in Paris?\"}]," + tools + "}");

            JsonNode call = json(asked).at("/choices/0/message/tool_calls/0");
            assertThat(json(asked).at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
            assertThat(call.at("/function/name").asText()).isEqualTo("get_weather");
            assertThat(Json.parse(call.at("/function/arguments").asText().getBytes()).get("text").asText()).isEqualTo("weather in Paris?");
            String id = call.get("id").asText();

            HttpResponse<String> answered = gateway.post("/v1/chat/completions", """
                    {"model":"claude","messages":[{"role":"user","content":"weather in Paris?"},
                     {"role":"assistant","content":null,"tool_calls":[%s]},
                     {"role":"tool","tool_call_id":"%s","content":"sunny"}],%s}""".formatted(call.toString(), id, tools));

            assertThat(answered.statusCode()).isEqualTo(200);
            assertThat(json(answered).at("/choices/0/message/content").asText()).isEqualTo("[claude] the tool said: sunny");
            JsonNode sent = claude.receivedBodies().getLast().get("messages");
            assertThat(sent.at("/1/content/0/type").asText()).isEqualTo("tool_use");
            assertThat(sent.at("/2/content/0/tool_use_id").asText()).isEqualTo(id);
        }
    }

    @Test
    void aStreamWithoutIncludeUsageHasNoUsageChunk() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("claude", "hi"));

            assertThat(response.body()).contains("[claude]").doesNotContain("\"usage\"").endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void aStructuredOutputComesBackAsJsonTextWholeAndStreamed() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            String format = "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"echo\",\"schema\":"
                    + "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}}}";
            HttpResponse<String> whole = gateway.post("/v1/chat/completions",
                    "{\"model\":\"claude\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]," + format + "}");

            assertThat(json(whole).at("/choices/0/message/content").asText()).isEqualTo("{\"text\":\"hi\"}");
            assertThat(json(whole).at("/choices/0/message/tool_calls").isMissingNode()).isTrue();
            assertThat(json(whole).at("/choices/0/finish_reason").asText()).isEqualTo("stop");
            assertThat(claude.receivedBodies().getFirst().at("/tool_choice/name").asText()).isEqualTo("json_tool_call");

            HttpResponse<String> streamed = gateway.post("/v1/chat/completions",
                    "{\"model\":\"claude\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]," + format + "}");
            StringBuilder text = new StringBuilder();
            for (String line : streamed.body().split("\n")) {
                if (line.startsWith("data: {")) {
                    text.append(Json.parse(line.substring(6).getBytes()).at("/choices/0/delta/content").asText(""));
                }
            }
            assertThat(text.toString()).isEqualTo("{\"text\":\"hi\"}");
            assertThat(streamed.body()).contains("\"finish_reason\":\"stop\"").doesNotContain("tool_calls");
        }
    }

    @Test
    void healthProbesSpeakAnthropicAndReadItsErrors() throws IOException {
        try (MockUpstream healthy = mock("healthy", MockMode.OK);
                MockUpstream overloaded = mock("overloaded", MockMode.FAIL);
                TestGateway gateway = gateway(deployment("a", healthy.baseUrl(), 1), deployment("b", overloaded.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.get("/health");

            JsonNode body = json(response);
            assertThat(body.at("/healthy_endpoints/0/model_id").asText()).isEqualTo("a");
            assertThat(body.at("/unhealthy_endpoints/0/model_id").asText()).isEqualTo("b");
            assertThat(body.at("/unhealthy_endpoints/0/error").asText()).isEqualTo("HTTP 529: [overloaded] Overloaded");
            assertThat(body.at("/unhealthy_endpoints/0/failure_class").asText()).isEqualTo("server");
            assertThat(healthy.receivedBodies().getFirst().get("max_tokens").asInt()).isEqualTo(1);
            assertThat(response.body()).doesNotContain(KEY);
        }
    }

    @Test
    void signedThinkingReachesTheCallerAndGoesBackOnTheNextTurn() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            HttpResponse<String> first = gateway.post("/v1/chat/completions",
                    "{\"model\":\"claude\",\"reasoning_effort\":\"low\",\"messages\":[{\"role\":\"user\",\"content\":\"think\"}]}");

            JsonNode message = json(first).at("/choices/0/message");
            assertThat(claude.receivedBodies().getFirst().get("thinking")).isEqualTo(Json.parse(
                    "{\"type\":\"enabled\",\"budget_tokens\":1024}".getBytes()));
            assertThat(message.get("reasoning_content").asText()).isEqualTo("[claude] thinking about: think");
            String signature = message.at("/thinking_blocks/0/signature").asText();
            assertThat(signature).isNotEmpty();

            gateway.post("/v1/chat/completions", """
                    {"model":"claude","reasoning_effort":"low","messages":[{"role":"user","content":"think"},%s,
                     {"role":"user","content":"more"}]}""".formatted(message.toString()));

            JsonNode sentBack = claude.receivedBodies().getLast().at("/messages/1/content/0");
            assertThat(sentBack.get("type").asText()).isEqualTo("thinking");
            assertThat(sentBack.get("signature").asText()).isEqualTo(signature);
        }
    }

    @Test
    void anOverloadedDeploymentFailsOverToItsSibling() throws IOException {
        try (MockUpstream overloaded = mock("overloaded", MockMode.FAIL);
                MockUpstream healthy = mock("healthy", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", overloaded.baseUrl(), 1), deployment("b", healthy.baseUrl(), 0))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(json(response).at("/choices/0/message/content").asText()).isEqualTo("[healthy] you said: hi");
            assertThat(overloaded.requests()).isPositive();
        }
    }

    @Test
    void anErrorEventAfterTheFirstEventEndsTheStreamInterrupted() throws IOException {
        try (ScriptedUpstream breaking = ScriptedUpstream.always("breaking", Reply.stream(End.COMPLETE,
                        Chunk.now("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"c\","
                                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"),
                        Chunk.now("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"),
                        Chunk.now("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n"),
                        Chunk.now("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")));
                MockUpstream healthy = mock("healthy", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", breaking.baseUrl(), 1), deployment("b", healthy.baseUrl(), 0))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("claude", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("a");
            assertThat(response.body()).contains("\"content\":\"Hel\"").contains("stream_interrupted").doesNotContain("[DONE]");
            assertThat(healthy.requests()).isZero();
        }
    }

    @Test
    void anErrorEventBeforeAnythingReachedTheCallerFailsOver() throws IOException {
        try (ScriptedUpstream failing = ScriptedUpstream.always("failing", Reply.stream(End.COMPLETE,
                        Chunk.now("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")));
                MockUpstream healthy = mock("healthy", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", failing.baseUrl(), 1), deployment("b", healthy.baseUrl(), 0))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("claude", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("b");
            assertThat(response.body()).contains("[healthy]").endsWith("data: [DONE]\n\n");
        }
    }

    @Test
    void aRateLimitCarriesItsWaitAndAnthropicsError() throws IOException {
        try (MockUpstream limited = MockUpstream.start(MockOptions.defaults("limited", MockMode.RATELIMIT).withApi(MockApi.ANTHROPIC)
                        .withRetryAfterSeconds(7));
                TestGateway gateway = gateway(deployment("a", limited.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"));

            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("retry-after")).hasValue("7");
            assertThat(json(response).at("/error/code").asText()).isEqualTo("rate_limit_error");
            assertThat(json(response).at("/error/message").asText()).contains("rate limit");
        }
    }

    @Test
    void theKeyNeverReachesTheCallerEvenWhenTheUpstreamEchoesIt() throws IOException {
        try (ScriptedUpstream echoing = ScriptedUpstream.always("echoing", new Reply(401,
                        "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key " + KEY + "\"}}", null));
                TestGateway gateway = gateway(deployment("a", echoing.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"));

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(json(response).at("/error/code").asText()).isEqualTo("authentication_error");
            assertThat(response.body()).contains("invalid x-api-key").doesNotContain(KEY);
            assertThat(response.headers().map().toString()).doesNotContain(KEY);
        }
    }

    @Test
    void aRefusedParameterIsA400NamingIt() throws IOException {
        try (MockUpstream claude = mock("claude", MockMode.OK);
                TestGateway gateway = gateway(deployment("a", claude.baseUrl(), 1))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions",
                    "{\"model\":\"claude\",\"seed\":3,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(json(response).at("/error/message").asText()).contains("seed");
            assertThat(claude.requests()).isZero();
        }
    }
}
