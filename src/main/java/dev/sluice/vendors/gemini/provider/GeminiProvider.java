package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.DropParams;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamErrors;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.gemini.wire.ToolCallIds;
import dev.sluice.vendors.stream.StreamTranslator;
import io.vertx.core.buffer.Buffer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Google AI Studio's Gemini API ({@code gemini/MODEL}): chat through
 * {@code POST {base}/v1beta/models/MODEL:generateContent} (and
 * {@code :streamGenerateContent?alt=sse}), embeddings through {@code :batchEmbedContents}. The
 * key, from {@code api_key} or {@code GEMINI_API_KEY}, goes in {@code x-goog-api-key};
 * {@code api_base} replaces the host {@code https://generativelanguage.googleapis.com} (a base
 * ending in the API version, {@code /v1beta} or {@code /v1}, replaces the version root too).
 */
public final class GeminiProvider implements Provider {
    public static final String DEFAULT_BASE = "https://generativelanguage.googleapis.com";

    private final Map<String, String> env;
    private final GeminiChatCalls chat;

    /** @param clock the time answers are dated with */
    public GeminiProvider(Map<String, String> env, Clock clock) {
        this(env, clock, ToolCallIds.from(new SecureRandom()));
    }

    public GeminiProvider(Map<String, String> env, Clock clock, ToolCallIds ids) {
        this.env = env;
        this.chat = new GeminiChatCalls(clock, ids);
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        ObjectNode body = ForwardedBody.of(request.body(), deployment.params().providerModel());
        return request(deployment, request.operation(), body, DropParams.allowed(deployment, request));
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body) {
        return request(deployment, endpoint, body, DropParams.allowed(deployment));
    }

    private UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body, boolean dropParams) {
        String model = deployment.params().providerModel();
        String base = base(deployment);
        // A base that already names the API version (".../v1beta") is taken as the version root.
        String root = base.endsWith("/v1beta") || base.endsWith("/v1") ? base : base + "/v1beta";
        String models = root + "/models/" + URLEncoder.encode(model, StandardCharsets.UTF_8);
        Map<String, String> headers = headers(deployment);
        return switch (endpoint) {
            case CHAT_COMPLETIONS -> {
                GeminiChatCalls.Written written = chat.write(body, dropParams);
                String url = models + (written.stream() ? ":streamGenerateContent?alt=sse" : ":generateContent");
                yield new UpstreamRequest(url, headers, written.body(), written.droppedParams());
            }
            case EMBEDDINGS -> {
                EmbeddingInputs inputs = EmbeddingInputs.of(body, dropParams);
                yield new UpstreamRequest(models + ":batchEmbedContents", headers, GeminiEmbeddings.body(model, inputs),
                        inputs.droppedParams());
            }
            default -> throw new IllegalArgumentException(
                    endpoint.path() + ": not served by Gemini (expected: /chat/completions or /embeddings)");
        };
    }

    private Map<String, String> headers(Deployment deployment) {
        Map<String, String> headers = new LinkedHashMap<>(deployment.params().vendor().extraHeaders());
        key(deployment).ifPresent(k -> headers.put("x-goog-api-key", k.value()));
        return headers;
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return chat.streamTranslator(deployment, request);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return chat.answer(request, body, GeminiEmbeddings::answer);
    }

    /** A health probe's answer, read by its shape since the probe does not say what it asked. */
    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return chat.probeAnswer(body, GeminiEmbeddings::isEmbeddingAnswer, GeminiEmbeddings::answer);
    }

    @Override
    public UpstreamErrors errors() {
        return GoogleErrors.ERRORS;
    }

    @Override
    public Optional<Secret> key(Deployment deployment) {
        return deployment.params().endpoint().apiKey().or(() -> deployment.ambient().variable(env, "GEMINI_API_KEY").map(Secret::new));
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (key(deployment).isEmpty()) {
            return Optional.of("api_key: missing (expected: a Google AI Studio key, here or in GEMINI_API_KEY)");
        }
        return Optional.empty();
    }

    private static String base(Deployment deployment) {
        String base = deployment.params().endpoint().apiBase().orElse(DEFAULT_BASE);
        return base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }
}
