package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Claude on Bedrock for a Messages API caller: InvokeModel's request layout, answer and stream, without a network. */
class BedrockClaudeTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T10:00:00Z"), ZoneOffset.UTC);
    private static final String SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String MESSAGES = """
            {"model":"g","max_tokens":300,"top_k":5,"stream":%s,"metadata":{"user_id":"u-1"},
             "system":[{"type":"text","text":"be brief","cache_control":{"type":"ephemeral"}}],
             "messages":[{"role":"user","content":"hello"}]%s}""";

    private final BedrockProvider provider = new BedrockProvider(Map.of(), CLOCK, () -> "fixed", new BundledModelCatalog());

    private static Deployment deployment(String model) throws Exception {
        return ConfigLoader.parse("model_list:\n  - model_name: g\n    litellm_params: {model: '" + model
                + "', aws_region_name: us-east-1}\n", Map.of(), Providers.knownPrefixes()).deployments().get(0);
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) Json.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectNode openAi(boolean stream) throws Exception {
        return json("{\"model\":\"g\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");
    }

    /** A Messages API call as its codec decodes it: the OpenAI form beside the caller's own body. */
    private static ModelRequest messages(boolean stream, String extraFields, Map<String, String> headers) throws Exception {
        return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.ANTHROPIC, openAi(stream), "g", stream, headers,
                json(MESSAGES.formatted(stream, extraFields)), Optional.empty());
    }

    private static ModelRequest openAiCall() throws Exception {
        return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.OPENAI, openAi(false), "g", false);
    }

    private static Buffer chunk(String anthropicEvent) {
        return Frames.event("chunk", "{\"bytes\":\"" + Base64.getEncoder().encodeToString(anthropicEvent.getBytes(StandardCharsets.UTF_8))
                + "\",\"p\":\"abcdefgh\"}");
    }

    @Test
    void claudeIsKnownByItsIdWhetherFoundationModelInferenceProfileOrArn() {
        assertThat(BedrockClaude.names(SONNET)).isTrue();
        assertThat(BedrockClaude.names("us.anthropic.claude-3-5-sonnet-20241022-v2:0")).isTrue();
        assertThat(BedrockClaude.names("global.anthropic.claude-sonnet-4-5-20250929-v1:0")).isTrue();
        assertThat(BedrockClaude.names("arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0")).isTrue();
        assertThat(BedrockClaude.names("arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu.anthropic.claude-3-7-sonnet-20250219-v1:0"))
                .isTrue();
        assertThat(BedrockClaude.names("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3")).isFalse();
        assertThat(BedrockClaude.names("amazon.nova-pro-v1:0")).isFalse();
        assertThat(BedrockClaude.names("meta.llama3-1-70b-instruct-v1:0")).isFalse();
    }

    @Test
    void onlyAMessagesCallerOfAClaudeModelPassesThroughAndNoStreamIsRelayedAsWritten() throws Exception {
        Deployment claude = deployment("bedrock/" + SONNET);
        Deployment invokeRoute = deployment("bedrock/invoke/us." + SONNET);
        Deployment nova = deployment("bedrock/amazon.nova-pro-v1:0");

        assertThat(provider.passesThrough(claude, messages(false, "", Map.of()))).isTrue();
        assertThat(provider.passesThrough(invokeRoute, messages(false, "", Map.of()))).isTrue();
        assertThat(provider.relaysStream(claude, messages(true, "", Map.of()))).isFalse();
        assertThat(provider.passesThrough(claude, openAiCall())).isFalse();
        assertThat(provider.passesThrough(nova, messages(false, "", Map.of()))).isFalse();
        assertThat(provider.request(nova, messages(false, "", Map.of())).url()).endsWith("/converse");
        assertThat(provider.request(claude, openAiCall()).url()).endsWith("/converse");
    }

    @Test
    void theCallersBodyGoesToInvokeModelWithoutModelOrStreamAndWithBedrocksVersion() throws Exception {
        ModelRequest whole = messages(false, ",\"num_retries\":2", Map.of());

        UpstreamRequest request = provider.request(deployment("bedrock/" + SONNET), whole);

        assertThat(request.url()).isEqualTo("https://bedrock-runtime.us-east-1.amazonaws.com/model/"
                + "anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke");
        assertThat(request.headers()).containsEntry("Accept", "application/json");
        JsonNode body = Json.parse(request.body());
        assertThat(body.has("model")).isFalse();
        assertThat(body.has("stream")).isFalse();
        assertThat(body.has("num_retries")).as("the gateway's own field").isFalse();
        assertThat(body.path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(body.path("top_k").asInt()).isEqualTo(5);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(300);
        assertThat(body.at("/system/0/cache_control/type").asText()).isEqualTo("ephemeral");
        assertThat(body.path("messages").toString()).isEqualTo("[{\"role\":\"user\",\"content\":\"hello\"}]");
        assertThat(body.has("anthropic_beta")).isFalse();
    }

    @Test
    void aStreamUsesInvokeWithResponseStreamAndBetasJoinTheBodysOwn() throws Exception {
        ModelRequest stream = messages(true, ",\"anthropic_version\":\"bedrock-2023-05-31\",\"anthropic_beta\":[\"a-1\"]",
                Map.of("anthropic-beta", "b-2, a-1,c-3"));

        UpstreamRequest request = provider.request(deployment("bedrock/us." + SONNET), stream);

        assertThat(request.url()).endsWith("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream");
        assertThat(request.headers()).containsEntry("Accept", "application/vnd.amazon.eventstream")
                .doesNotContainKey("anthropic-beta");
        JsonNode body = Json.parse(request.body());
        assertThat(body.path("anthropic_beta").toString()).isEqualTo("[\"a-1\",\"b-2\",\"c-3\"]");
        assertThat(body.has("stream")).isFalse();
    }

    @Test
    void aCallersOwnVersionIsKeptAndABetaFieldThatIsNoListIsRefusedByName() throws Exception {
        Deployment claude = deployment("bedrock/" + SONNET);
        JsonNode kept = Json.parse(provider.request(claude, messages(false, ",\"anthropic_version\":\"bedrock-2099-01-01\"",
                Map.of())).body());
        assertThat(kept.path("anthropic_version").asText()).isEqualTo("bedrock-2099-01-01");

        assertThatThrownBy(() -> provider.request(claude, messages(false, ",\"anthropic_beta\":\"x\"", Map.of("anthropic-beta", "y"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("anthropic_beta: \"x\"");
    }

    @Test
    void invokeModelsAnswerIsReadAsAnthropicsMessage() throws Exception {
        Buffer answer = Buffer.buffer("""
                {"id":"msg_bdrk_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
                 "content":[{"type":"text","text":"hi there"}],"stop_reason":"end_turn","stop_sequence":null,
                 "usage":{"input_tokens":10,"cache_read_input_tokens":4,"cache_creation_input_tokens":0,"output_tokens":3}}""");

        OpenAiShape.ShapedAnswer shaped = provider.normaliseSuccess(messages(false, "", Map.of()), answer).orElseThrow();

        assertThat(shaped.tree().at("/choices/0/message/content").asText()).isEqualTo("hi there");
        assertThat(shaped.tree().at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(shaped.tree().at("/usage/prompt_tokens").asLong()).isEqualTo(14);
        assertThat(shaped.completionTokens()).isEqualTo(3);
    }

    @Test
    void chunkFramesCarryAnthropicEventsThatBecomeOpenAiChunks() throws Exception {
        Deployment claude = deployment("bedrock/" + SONNET);
        StreamTranslator translator = provider.streamTranslator(claude, messages(true, "", Map.of()));
        List<Buffer> frames = List.of(
                chunk("{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                        + "\"model\":\"claude\",\"content\":[],\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}"),
                chunk("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"),
                chunk("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}"),
                chunk("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"lo\"}}"),
                chunk("{\"type\":\"content_block_stop\",\"index\":0}"),
                chunk("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}"),
                chunk("{\"type\":\"message_stop\",\"amazon-bedrock-invocationMetrics\":{\"inputTokenCount\":12,"
                        + "\"outputTokenCount\":2,\"invocationLatency\":5,\"firstByteLatency\":1}}"));

        StringBuilder out = new StringBuilder();
        for (Buffer frame : frames) {
            out.append(translator.feed(frame).toString(StandardCharsets.UTF_8));
        }
        out.append(translator.end().toString(StandardCharsets.UTF_8));

        List<String> data = BedrockGatewayTest.events(out.toString());
        StringBuilder text = new StringBuilder();
        for (String line : data.subList(0, data.size() - 1)) {
            text.append(Json.parse(line.getBytes()).at("/choices/0/delta/content").asText(""));
        }
        assertThat(text.toString()).isEqualTo("Hello");
        assertThat(out.toString()).contains("\"finish_reason\":\"stop\"").endsWith("data: [DONE]\n\n");
        assertThat(translator.usage()).hasValueSatisfying(usage -> {
            assertThat(usage.promptTokens()).isEqualTo(12);
            assertThat(usage.completionTokens()).isEqualTo(2);
        });
    }

    @Test
    void anExceptionFrameFailsTheStreamAsBedrocksAnswerWouldAndABadChunkIsAServerFailure() throws Exception {
        Deployment claude = deployment("bedrock/" + SONNET);
        StreamTranslator throttled = provider.streamTranslator(claude, messages(true, "", Map.of()));
        assertThatThrownBy(() -> throttled.feed(Frames.exception("throttlingException", "{\"message\":\"Too many tokens\"}")))
                .isInstanceOfSatisfying(StreamFailure.class, failure -> {
                    assertThat(failure.failure().kind()).isEqualTo(FailureClass.RATE_LIMITED);
                    assertThat(failure.failure().status()).isEqualTo(429);
                });

        StreamTranslator overloaded = provider.streamTranslator(claude, messages(true, "", Map.of()));
        assertThatThrownBy(() -> overloaded.feed(chunk("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}")))
                .isInstanceOfSatisfying(StreamFailure.class, failure -> assertThat(failure.failure().kind()).isEqualTo(FailureClass.SERVER));

        StreamTranslator garbled = provider.streamTranslator(claude, messages(true, "", Map.of()));
        assertThatThrownBy(() -> garbled.feed(Frames.event("chunk", "{\"bytes\":\"not base64!\"}")))
                .isInstanceOfSatisfying(StreamFailure.class, failure -> {
                    assertThat(failure.failure().kind()).isEqualTo(FailureClass.SERVER);
                    assertThat(failure.getMessage()).contains("not base64");
                });
    }
}
