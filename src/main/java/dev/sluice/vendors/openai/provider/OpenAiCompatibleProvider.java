package dev.sluice.vendors.openai.provider;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * OpenAI's API and every server that speaks it: {@code <base><endpoint path>} with a
 * bearer key. The body goes upstream as the caller wrote it.
 */
public final class OpenAiCompatibleProvider implements Provider {
    private final CompatibleFlavour flavour;
    private final Map<String, String> env;
    private final NativeResponses responses;

    /** @param clock the time translated Responses answers are dated with */
    public OpenAiCompatibleProvider(CompatibleFlavour flavour, Map<String, String> env, Clock clock) {
        this.flavour = flavour;
        this.env = env;
        this.responses = new NativeResponses(clock);
    }

    /**
     * OpenAI's own API also serves callers of the Responses API untranslated (unless the
     * deployment says {@code use_responses_api: false}); the servers that only copy its chat
     * completions are called with those.
     */
    @Override
    public boolean passesThrough(Deployment deployment, ModelRequest request) {
        return request.writtenIn(Dialect.OPENAI) || servesResponses() && NativeResponses.passesThrough(deployment, request);
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        if (request.writtenIn(Dialect.OPENAI_RESPONSES) && passesThrough(deployment, request)) {
            return request(deployment, Operation.RESPONSES, NativeResponses.body(deployment, request));
        }
        return Provider.super.request(deployment, request);
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return request.writtenIn(Dialect.OPENAI_RESPONSES) && passesThrough(deployment, request) ? responses.streamTranslator()
                : StreamTranslator.openAi();
    }

    /** A {@code response} object answers a call passed to the deployment's Responses API; anything else is a chat answer. */
    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return responses.answer(request, body, this::normaliseSuccess);
    }

    @Override
    public boolean serves(Operation operation) {
        return CompatibleOperations.serves(flavour.prefix(), operation);
    }

    private boolean servesResponses() {
        return flavour.prefix().equals("openai");
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body) {
        String base = base(deployment).orElseThrow(() -> new IllegalStateException(misconfiguration(deployment).orElseThrow()));
        Map<String, String> headers = key(deployment).map(k -> Map.of("Authorization", "Bearer " + k.value())).orElse(Map.of());
        return new UpstreamRequest(base + endpoint.path(), headers, Json.bytes(body));
    }

    @Override
    public Optional<Secret> key(Deployment deployment) {
        return deployment.params().endpoint().apiKey()
                .or(() -> deployment.ambient().variable(env, flavour.keyVariable()).map(Secret::new));
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (base(deployment).isEmpty()) {
            return Optional.of("api_base: missing (expected: the server's base URL, e.g. http://host:8000/v1;"
                    + " provider '" + flavour.prefix() + "' has no default)");
        }
        return Optional.empty();
    }

    private Optional<String> base(Deployment deployment) {
        return deployment.params().endpoint().apiBase().map(this::normalise).or(flavour::defaultBase);
    }

    private String normalise(String apiBase) {
        String base = apiBase.endsWith("/") ? apiBase.substring(0, apiBase.length() - 1) : apiBase;
        if (flavour.addV1()) {
            String path = URI.create(base).getPath();
            if (path == null || path.isEmpty()) {
                return base + "/v1";
            }
        }
        return base;
    }
}
