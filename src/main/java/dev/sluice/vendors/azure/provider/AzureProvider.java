package dev.sluice.vendors.azure.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.openai.provider.NativeResponses;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Azure OpenAI: the deployment name is in the URL
 * ({@code <api_base>/openai/deployments/<name>/chat/completions?api-version=...}) and the key
 * goes in an {@code api-key} header. As in LiteLLM, {@code AZURE_API_BASE},
 * {@code AZURE_API_KEY} and {@code AZURE_API_VERSION} fill what the config leaves out.
 */
public final class AzureProvider implements Provider {
    /** The API version used when neither the config nor the environment names one. */
    public static final String DEFAULT_API_VERSION = "2024-10-21";
    /** The first API version that serves the Responses API. */
    static final String RESPONSES_API_VERSION = "2025-03-01-preview";

    private final Map<String, String> env;
    private final NativeResponses responses;

    /** @param clock the time translated Responses answers are dated with */
    public AzureProvider(Map<String, String> env, Clock clock) {
        this.env = env;
        this.responses = new NativeResponses(clock);
    }

    /** Azure OpenAI also serves callers of the Responses API untranslated, unless {@code use_responses_api: false}. */
    @Override
    public boolean passesThrough(Deployment deployment, ModelRequest request) {
        return request.writtenIn(Dialect.OPENAI) || NativeResponses.passesThrough(deployment, request);
    }

    /**
     * A Responses call goes to the resource's {@code /openai/responses}, the deployment named
     * as the body's {@code model}, with an API version that serves it: the deployment's own when
     * it is a preview from {@value #RESPONSES_API_VERSION} on, else that one.
     */
    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        if (!NativeResponses.passesThrough(deployment, request)) {
            return Provider.super.request(deployment, request);
        }
        String base = base(deployment).orElseThrow(() -> new IllegalStateException(misconfiguration(deployment).orElseThrow()));
        String version = deployment.params().endpoint().apiVersion().filter(v -> v.endsWith("-preview") && v.compareTo(RESPONSES_API_VERSION) >= 0)
                .orElse(RESPONSES_API_VERSION);
        Map<String, String> headers = key(deployment).map(k -> Map.of("api-key", k.value())).orElse(Map.of());
        return new UpstreamRequest(base + "/openai/responses?api-version=" + URLEncoder.encode(version, StandardCharsets.UTF_8),
                headers, Json.bytes(NativeResponses.body(deployment, request)));
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return NativeResponses.passesThrough(deployment, request) ? responses.streamTranslator() : StreamTranslator.openAi();
    }

    /** A {@code response} object answers a call passed to the Responses API; anything else is a chat answer. */
    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return responses.answer(request, body, this::normaliseSuccess);
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body) {
        String base = base(deployment).orElseThrow(() -> new IllegalStateException(misconfiguration(deployment).orElseThrow()));
        String version = deployment.params().endpoint().apiVersion()
                .or(() -> Optional.ofNullable(env.get("AZURE_API_VERSION")))
                .orElse(DEFAULT_API_VERSION);
        String url = base + "/openai/deployments/"
                + URLEncoder.encode(deployment.params().providerModel(), StandardCharsets.UTF_8).replace("+", "%20")
                + endpoint.path() + "?api-version=" + URLEncoder.encode(version, StandardCharsets.UTF_8);
        Map<String, String> headers = key(deployment).map(k -> Map.of("api-key", k.value())).orElse(Map.of());
        return new UpstreamRequest(url, headers, Json.bytes(body));
    }

    /** Azure OpenAI serves OpenAI's image and audio calls too; it has no moderations or rerank. */
    @Override
    public boolean serves(Operation operation) {
        return operation != Operation.MODERATIONS && operation != Operation.RERANK;
    }

    @Override
    public Optional<Secret> key(Deployment deployment) {
        return deployment.params().endpoint().apiKey()
                .or(() -> deployment.ambient().variable(env, "AZURE_API_KEY").map(Secret::new));
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (base(deployment).isEmpty()) {
            return Optional.of("api_base: missing (expected: the Azure resource's endpoint, e.g."
                    + " https://NAME.openai.azure.com, here or in AZURE_API_BASE)");
        }
        return Optional.empty();
    }

    private Optional<String> base(Deployment deployment) {
        return deployment.params().endpoint().apiBase()
                .or(() -> Optional.ofNullable(env.get("AZURE_API_BASE")))
                .map(b -> b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
    }
}
