package dev.sluice.provider.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.json.Json;
import dev.sluice.llm.ChatAnswer;
import dev.sluice.llm.ChatRequest;
import dev.sluice.llm.Dialect;
import dev.sluice.llm.ModelRequest;
import dev.sluice.llm.Operation;
import dev.sluice.llm.anthropic.AnthropicMessages;
import dev.sluice.llm.openai.OpenAiChat;
import dev.sluice.provider.DropParams;
import dev.sluice.provider.OpenAiShape;
import dev.sluice.provider.Provider;
import dev.sluice.provider.UnsupportedParam;
import dev.sluice.provider.UpstreamRequest;
import dev.sluice.provider.stream.SseFraming;
import dev.sluice.provider.stream.StreamTranslator;
import dev.sluice.provider.stream.TranslatedStream;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import dev.sluice.catalog.ModelCatalog;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Optional;

/**
 * Anthropic's Messages API ({@code anthropic/MODEL}): OpenAI chat calls are decoded into the
 * internal model and written as Messages calls ({@link AnthropicMessages}); answers and
 * stream events come back as OpenAI's. Anthropic's error bodies
 * ({@code {"type":"error","error":{"type","message"}}}) are classified and shaped by the
 * shared rules, which read them: 529 {@code overloaded_error} and 500 {@code api_error} are
 * server failures, 429 a rate limit with its {@code retry-after}, 400 "prompt is too long" a
 * context-window refusal, and the caller sees Anthropic's message with its error type as the
 * code. Only chat completions exist on Anthropic; the other operations are refused.
 *
 * <p>{@code max_tokens}, which Anthropic requires, defaults to the deployment's
 * {@code model_info.max_output_tokens}, else the model catalog's output limit, else
 * {@value AnthropicMessages#DEFAULT_MAX_TOKENS}.
 */
public final class AnthropicProvider implements Provider {
    private static final String VENDOR = "Anthropic";

    private final AnthropicEndpoint endpoint;
    private final Clock clock;
    private final ModelCatalog catalog;

    /** @param catalog where a model's output limit is found, for the {@code max_tokens} Anthropic requires */
    public AnthropicProvider(Map<String, String> env, Clock clock, ModelCatalog catalog) {
        this.endpoint = new AnthropicEndpoint(env);
        this.clock = clock;
        this.catalog = catalog;
    }

    @Override
    public Dialect dialect() {
        return Dialect.ANTHROPIC;
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        return request(deployment, request.operation(), request.body(), DropParams.allowed(deployment, request), request.vendorHeaders());
    }

    /** A health probe's call, or any OpenAI body without a caller: nothing the caller addressed to Anthropic. */
    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpointOperation, ObjectNode body) {
        return request(deployment, endpointOperation, body, DropParams.allowed(deployment), Map.of());
    }

    private UpstreamRequest request(Deployment deployment, Operation operation, ObjectNode body, boolean drop,
            Map<String, String> callerHeaders) {
        if (operation != Operation.CHAT_COMPLETIONS) {
            throw new IllegalArgumentException(VENDOR + " serves chat completions only; " + operation.path()
                    + " cannot be sent to deployment model " + deployment.params().model());
        }
        ChatRequest chat = OpenAiChat.decodeRequest(body);
        AnthropicMessages.Encoded encoded = AnthropicMessages.encodeRequest(chat,
                new AnthropicMessages.Options(deployment.params().providerModel(), defaultMaxTokens(deployment)));
        if (!encoded.unsupported().isEmpty() && !drop) {
            throw new UnsupportedParam(encoded.unsupported().getFirst(), VENDOR);
        }
        return new UpstreamRequest(endpoint.url(deployment), endpoint.headers(deployment, callerHeaders),
                Json.bytes(encoded.body()), encoded.unsupported());
    }

    private int defaultMaxTokens(Deployment deployment) {
        OptionalInt own = deployment.info().maxOutputTokens();
        return (own.isPresent() ? own : catalog.maxOutputTokens(deployment)).orElse(AnthropicMessages.DEFAULT_MAX_TOKENS);
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        return new TranslatedStream(new SseFraming(), new AnthropicEventDecoder(AnthropicMessages.asksJson(request.body()), clock),
                includeUsage, clock.instant().getEpochSecond());
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return shaped(body, false);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return shaped(body, AnthropicMessages.asksJson(request.body()));
    }

    private Optional<OpenAiShape.ShapedAnswer> shaped(Buffer body, boolean jsonMode) {
        ChatAnswer answer;
        try {
            JsonNode tree = Json.parse(body.getBytes());
            answer = AnthropicMessages.decodeAnswer(tree, jsonMode);
        } catch (IOException | IllegalArgumentException | NullPointerException unusable) {
            return Optional.empty();
        }
        ObjectNode openAi = OpenAiChat.encodeAnswer(answer, clock.instant().getEpochSecond());
        return Optional.of(new OpenAiShape.ShapedAnswer(Json.buffer(openAi), openAi, answer.usage().totalTokens(),
                answer.usage().completionTokens()));
    }

    @Override
    public Optional<Secret> key(Deployment deployment) {
        return endpoint.key(deployment);
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (endpoint.key(deployment).isEmpty()) {
            return Optional.of("api_key: missing (expected: an Anthropic API key, here or in ANTHROPIC_API_KEY)");
        }
        return Optional.empty();
    }
}
