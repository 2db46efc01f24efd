package dev.sluice.vendors.anthropic.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.vendors.stream.SseFraming;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.vendors.stream.TranslatedStream;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Messages API call's body, answer and stream, wherever the Messages API is served:
 * Anthropic's own endpoint, and Claude on Vertex AI, which takes the same body (less
 * {@code model}, plus {@code anthropic_version}) and answers the same way.
 */
public final class AnthropicCalls {
    static final String VENDOR = "Anthropic";

    private final Clock clock;
    private final ModelCatalog catalog;

    /** @param catalog where a model's output limit is found, for the {@code max_tokens} Anthropic requires */
    public AnthropicCalls(Clock clock, ModelCatalog catalog) {
        this.clock = clock;
        this.catalog = catalog;
    }

    /**
     * A Messages body for an OpenAI chat body.
     *
     * @param body           the caller's OpenAI body
     * @param drop           whether what Anthropic cannot take is left out rather than refused
     * @throws UnsupportedParam when {@code body} holds what Anthropic cannot take and {@code drop} is false
     */
    public Written write(Deployment deployment, ObjectNode body, boolean drop) {
        ChatRequest chat = OpenAiChat.decodeRequest(body);
        AnthropicMessages.Encoded encoded = AnthropicMessages.encodeRequest(chat,
                new AnthropicMessages.Options(deployment.params().providerModel(), defaultMaxTokens(deployment)));
        if (!encoded.unsupported().isEmpty() && !drop) {
            throw new UnsupportedParam(encoded.unsupported().getFirst(), VENDOR);
        }
        return new Written(encoded.body(), encoded.unsupported(), chat.stream());
    }

    /**
     * The caller's own Messages body, for a caller of the Messages API: nothing crosses the
     * internal model, so cache breakpoints on any block, thinking signatures and fields newer
     * than this gateway all reach Anthropic. Only {@code model} is set to the deployment's, and
     * the gateway's own fields are left out.
     */
    public Written passThrough(Deployment deployment, ModelRequest request) {
        ObjectNode body = ForwardedBody.of(request.callerBody(), deployment.params().providerModel());
        if (!body.has("max_tokens")) {
            body.put("max_tokens", defaultMaxTokens(deployment));
        }
        return new Written(body, List.of(), request.stream());
    }

    /** The body for {@code request}: the caller's own when it wrote the Messages API, else translated. */
    public Written write(Deployment deployment, ModelRequest request, boolean drop) {
        return request.writtenIn(Dialect.ANTHROPIC) ? passThrough(deployment, request)
                : write(deployment, request.body(), drop);
    }

    /**
     * A Messages body ready to send.
     *
     * @param body          the body, {@code model} included; the caller may change its top-level fields
     * @param droppedParams what was left out of the caller's request
     * @param stream        whether the caller asked for a stream
     */
    public record Written(ObjectNode body, List<String> droppedParams, boolean stream) {}

    /** The stream of a call for {@code request}, as OpenAI chunks. */
    public StreamTranslator streamTranslator(ModelRequest request) {
        boolean includeUsage = request.body().path("stream_options").path("include_usage").asBoolean(false);
        return new TranslatedStream(new SseFraming(), new AnthropicEventDecoder(AnthropicMessages.asksJson(request.body()), clock),
                includeUsage, clock.instant().getEpochSecond());
    }

    /** A Messages answer to {@code request} as OpenAI's chat completion; empty when it is not one. */
    public Optional<OpenAiShape.ShapedAnswer> answer(ModelRequest request, Buffer body) {
        return answer(body, AnthropicMessages.asksJson(request.body()));
    }

    /** A Messages answer read without its request (a health probe's) as OpenAI's chat completion. */
    public Optional<OpenAiShape.ShapedAnswer> answer(Buffer body) {
        return answer(body, false);
    }

    /**
     * The deployment's {@code extra_headers} and the {@code anthropic-beta} features asked by
     * the caller ({@code callerHeaders}, its {@code anthropic-*} headers) and the deployment.
     */
    public static java.util.Map<String, String> headers(Deployment deployment, java.util.Map<String, String> callerHeaders) {
        return AnthropicEndpoint.deploymentHeaders(deployment, callerHeaders);
    }

    /** Whether a 2xx body is a Messages answer. */
    public static boolean isAnswer(JsonNode tree) {
        return "message".equals(tree.path("type").asText(null));
    }

    private Optional<OpenAiShape.ShapedAnswer> answer(Buffer body, boolean jsonMode) {
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

    private int defaultMaxTokens(Deployment deployment) {
        OptionalInt own = deployment.info().maxOutputTokens();
        return (own.isPresent() ? own : catalog.maxOutputTokens(deployment)).orElse(AnthropicMessages.DEFAULT_MAX_TOKENS);
    }
}
