package dev.sluice.vendors.anthropic.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.stream.StreamFailure;
import dev.sluice.vendors.stream.StreamTranslator;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The anthropic/ adapter's call layout, answers, streams and failure classes. */
class AnthropicProviderTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_700_000_000), ZoneOffset.UTC);
    private static final Instant NOW = CLOCK.instant();

    private static Deployment deployment(String params, Map<String, String> env) throws Exception {
        return ConfigLoader.parse("model_list:\n  - model_name: g\n    litellm_params: {" + params + "}\n",
                env, Providers.knownPrefixes()).deployments().get(0);
    }

    private static Deployment deployment(String params) throws Exception {
        return deployment(params, Map.of());
    }

    private static AnthropicProvider provider(Map<String, String> env) {
        return new AnthropicProvider(env, CLOCK, new dev.sluice.catalog.BundledModelCatalog());
    }

    private static ObjectNode chat(String json) throws Exception {
        return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
    }

    private static ModelRequest call(String json) throws Exception {
        ObjectNode body = chat(json);
        return new ModelRequest(Operation.CHAT_COMPLETIONS, Dialect.OPENAI, body, "g", body.path("stream").asBoolean(false));
    }

    private static JsonNode sent(UpstreamRequest request) throws Exception {
        return MAPPER.readTree(request.body());
    }

    @Test
    void callsMessagesWithTheKeyAndVersionAndTheProviderModel() throws Exception {
        Deployment d = deployment("model: anthropic/claude-sonnet-4-5, api_key: sk-ant-1");
        UpstreamRequest r = provider(Map.of()).request(d, call("{'model':'g','messages':[{'role':'user','content':'hi'}]}"));

        assertThat(r.url()).isEqualTo("https://api.anthropic.com/v1/messages");
        assertThat(r.headers()).containsEntry("x-api-key", "sk-ant-1").containsEntry("anthropic-version", "2023-06-01")
                .doesNotContainKey("Authorization");
        assertThat(sent(r).get("model").asText()).isEqualTo("claude-sonnet-4-5");
        assertThat(sent(r).get("max_tokens").asInt()).as("the catalog's output limit").isEqualTo(64000);
        assertThat(Providers.builtIn(Map.of(), Clock.systemUTC()).forDeployment(d)).isInstanceOf(AnthropicProvider.class);
    }

    @Test
    void apiBaseIsTakenWithOrWithoutV1() throws Exception {
        for (String base : List.of("http://127.0.0.1:9/", "http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1/")) {
            Deployment d = deployment("model: anthropic/c, api_key: k, api_base: '" + base + "'");
            assertThat(provider(Map.of()).request(d, Operation.CHAT_COMPLETIONS, chat("{'model':'c','messages':[{'role':'user','content':'hi'}]}")).url())
                    .as(base).isEqualTo("http://127.0.0.1:9/v1/messages");
        }
    }

    @Test
    void theKeyMayComeFromTheEnvironmentAndIsMissedWhenNowhere() throws Exception {
        Deployment d = deployment("model: anthropic/c");

        assertThat(provider(Map.of("ANTHROPIC_API_KEY", "sk-env")).request(d, Operation.CHAT_COMPLETIONS,
                chat("{'model':'c','messages':[{'role':'user','content':'hi'}]}")).headers()).containsEntry("x-api-key", "sk-env");
        assertThat(provider(Map.of("ANTHROPIC_API_KEY", "sk-env")).key(d)).hasValueSatisfying(k -> assertThat(k.value()).isEqualTo("sk-env"));
        assertThat(provider(Map.of()).misconfiguration(d)).hasValueSatisfying(p -> assertThat(p).startsWith("api_key: missing"));
        assertThat(provider(Map.of("ANTHROPIC_API_KEY", "sk-env")).misconfiguration(d)).isEmpty();
    }

    @Test
    void betaFeaturesOfTheCallerAndTheDeploymentAreJoinedAndOtherExtraHeadersSent() throws Exception {
        Deployment d = deployment("model: anthropic/c, api_key: k, extra_headers: {anthropic-beta: 'files-api-2025-04-14', X-Team: blue}");
        ModelRequest request = call("{'model':'g','messages':[{'role':'user','content':'hi'}]}").withVendorHeaders(
                MultiMap.caseInsensitiveMultiMap().add("Anthropic-Beta", "prompt-caching-2024-07-31, files-api-2025-04-14")
                        .add("Authorization", "Bearer sluice-key"));

        UpstreamRequest r = provider(Map.of()).request(d, request);

        assertThat(r.headers()).containsEntry("anthropic-beta", "prompt-caching-2024-07-31,files-api-2025-04-14")
                .containsEntry("X-Team", "blue").doesNotContainKey("Authorization");
        assertThat(request.vendorHeaders()).containsOnlyKeys("anthropic-beta");
    }

    @Test
    void aParameterAnthropicCannotTakeIsRefusedUnlessDropped() throws Exception {
        Deployment d = deployment("model: anthropic/c, api_key: k");
        String json = "{'model':'g','messages':[{'role':'user','content':'hi'}],'seed':1,'logit_bias':{'1':1}%s}";

        assertThatThrownBy(() -> provider(Map.of()).request(d, call(json.formatted(""))))
                .isInstanceOfSatisfying(UnsupportedParam.class, e -> assertThat(e.param()).isEqualTo("seed"));
        UpstreamRequest dropped = provider(Map.of()).request(d, call(json.formatted(",'drop_params':true")));
        assertThat(dropped.droppedParams()).containsExactly("seed", "logit_bias");
        assertThat(sent(dropped).has("seed")).isFalse();
        Deployment dropping = deployment("model: anthropic/c, api_key: k, drop_params: true");
        assertThat(provider(Map.of()).request(dropping, call(json.formatted(""))).droppedParams()).containsExactly("seed", "logit_bias");
    }

    @Test
    void onlyChatCompletionsCanBeSent() throws Exception {
        Deployment d = deployment("model: anthropic/c, api_key: k");
        assertThatThrownBy(() -> provider(Map.of()).request(d, Operation.EMBEDDINGS, chat("{'model':'c','input':'x'}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chat completions only");
    }

    @Test
    void theMaxTokensDefaultIsTheDeploymentsOutputLimit() throws Exception {
        Deployment d = ConfigLoader.parse("""
                model_list:
                  - model_name: g
                    litellm_params: {model: anthropic/c, api_key: k}
                    model_info: {max_output_tokens: 64000}
                """, Map.of(), Providers.knownPrefixes()).deployments().get(0);
        assertThat(sent(provider(Map.of()).request(d, call("{'model':'g','messages':[{'role':'user','content':'hi'}]}")))
                .get("max_tokens").asInt()).isEqualTo(64000);
    }

    @Test
    void theMaxTokensDefaultIsTheCatalogsOutputLimitThenFourThousand() throws Exception {
        String hi = "{'model':'g','messages':[{'role':'user','content':'hi'}]}";
        assertThat(sent(provider(Map.of()).request(deployment("model: anthropic/claude-3-5-haiku-20241022, api_key: k"), call(hi)))
                .get("max_tokens").asInt()).isEqualTo(8192);
        assertThat(sent(provider(Map.of()).request(deployment("model: anthropic/claude-unknown, api_key: k"), call(hi)))
                .get("max_tokens").asInt()).isEqualTo(4096);
    }

    @Test
    void anAnswerIsOpenAisChatCompletion() throws Exception {
        Provider p = provider(Map.of());
        Buffer answer = Buffer.buffer("""
                {"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"Hi"}],
                 "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":3,"cache_read_input_tokens":4,"output_tokens":2}}""");

        var shaped = p.normaliseSuccess(call("{'model':'g','messages':[]}"), answer).orElseThrow();
        assertThat(shaped.tree().get("object").asText()).isEqualTo("chat.completion");
        assertThat(shaped.tree().get("created").asLong()).isEqualTo(1_700_000_000L);
        assertThat(shaped.tree().at("/choices/0/message/content").asText()).isEqualTo("Hi");
        assertThat(shaped.totalTokens()).isEqualTo(9);
        assertThat(shaped.completionTokens()).isEqualTo(2);
        assertThat(p.normaliseSuccess(Buffer.buffer("{\"choices\":[]}"))).isEmpty();
    }

    @Test
    void failuresAreClassifiedTheAnthropicWay() {
        Provider p = provider(Map.of());
        assertThat(classify(p, 529, "overloaded_error", "Overloaded", null).kind()).isEqualTo(FailureClass.SERVER);
        assertThat(classify(p, 500, "api_error", "Internal server error", null).kind()).isEqualTo(FailureClass.SERVER);
        Failure limited = classify(p, 429, "rate_limit_error", "slow down", "7");
        assertThat(limited.kind()).isEqualTo(FailureClass.RATE_LIMITED);
        assertThat(limited.retryAfter()).contains(Duration.ofSeconds(7));
        assertThat(classify(p, 400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum", null).kind())
                .isEqualTo(FailureClass.CONTEXT_WINDOW);
        assertThat(classify(p, 400, "invalid_request_error", "temperature: bad", null).kind()).isEqualTo(FailureClass.REJECTED);
        assertThat(classify(p, 401, "authentication_error", "invalid x-api-key", null).kind()).isEqualTo(FailureClass.AUTH);
        assertThat(classify(p, 403, "permission_error", "no", null).kind()).isEqualTo(FailureClass.AUTH);
        assertThat(classify(p, 404, "not_found_error", "model: x", null).kind()).isEqualTo(FailureClass.NOT_FOUND);
    }

    @Test
    void anErrorIsOpenAisShapeWithAnthropicsMessageAndTypeAsCode() {
        JsonNode error = provider(Map.of()).normaliseError(529, errorBody("overloaded_error", "Overloaded")).get("error");

        assertThat(error.get("message").asText()).isEqualTo("Overloaded");
        assertThat(error.get("code").asText()).isEqualTo("overloaded_error");
        assertThat(error.get("type").asText()).isEqualTo("server_error");
        assertThat(error.get("upstream_status").asInt()).isEqualTo(529);
    }

    @Test
    void aStreamIsTranslatedAndItsErrorEventClassifiedLikeTheAnswer() throws Exception {
        Deployment d = deployment("model: anthropic/c, api_key: k");
        ModelRequest request = call("{'model':'g','stream':true,'stream_options':{'include_usage':true},'messages':[{'role':'user','content':'hi'}]}");
        StreamTranslator translator = provider(Map.of()).streamTranslator(d, request);

        String out = translator.feed(Buffer.buffer("""
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","model":"c","usage":{"input_tokens":5,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}

                event: message_stop
                data: {"type":"message_stop"}

                """)).toString() + translator.end().toString();

        assertThat(out).contains("\"content\":\"Hello\"").contains("\"finish_reason\":\"stop\"").contains("\"total_tokens\":7")
                .endsWith("data: [DONE]\n\n");
        StreamTranslator failing = provider(Map.of()).streamTranslator(d, request);
        assertThatThrownBy(() -> failing.feed(Buffer.buffer(
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow\"}}\n\n")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> {
                    assertThat(f.failure().kind()).isEqualTo(FailureClass.RATE_LIMITED);
                    assertThat(f.failure().status()).isEqualTo(429);
                });
        StreamTranslator overloaded = provider(Map.of()).streamTranslator(d, request);
        assertThatThrownBy(() -> overloaded.feed(Buffer.buffer(
                "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n")))
                .isInstanceOfSatisfying(StreamFailure.class, f -> assertThat(f.failure().kind()).isEqualTo(FailureClass.SERVER));
    }

    private static Buffer errorBody(String type, String message) {
        return Buffer.buffer("{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"}}");
    }

    private static Failure classify(Provider p, int status, String type, String message, String retryAfter) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        if (retryAfter != null) {
            headers.add("retry-after", retryAfter);
        }
        return p.classify(status, errorBody(type, message), headers, NOW);
    }
}
