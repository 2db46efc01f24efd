package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.DropParams;
import dev.sluice.vendors.ForwardedBody;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.Provider;
import dev.sluice.vendors.UpstreamErrors;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.anthropic.provider.AnthropicCalls;
import dev.sluice.vendors.gemini.provider.GeminiChatCalls;
import dev.sluice.vendors.gemini.provider.GoogleErrors;
import dev.sluice.vendors.gemini.wire.ToolCallIds;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Vertex AI ({@code vertex_ai/MODEL}): each call goes to its model family's publisher model
 * URL in the deployment's project and location, with an OAuth2 access token as
 * {@code Authorization: Bearer}. The token is the deployment's secret: {@link #key} returns it
 * so everything relayed has it masked. Families are asked in order whether they serve the
 * model: Anthropic's Claude ({@code claude-*}, through {@code rawPredict}), then Gemini, which
 * serves any other.
 */
public final class VertexProvider implements Provider {
    private final VertexEndpoints endpoints;
    private final VertexCredentials credentials;
    private final List<VertexFamily> families;

    /**
     * @param clock   the time tokens are minted at and answers are dated with
     * @param catalog where a Claude model's output limit is found, for the {@code max_tokens} Anthropic requires
     */
    public VertexProvider(Map<String, String> env, Clock clock, ModelCatalog catalog) {
        this(env, clock, ToolCallIds.from(new SecureRandom()), catalog);
    }

    public VertexProvider(Map<String, String> env, Clock clock, ToolCallIds ids, ModelCatalog catalog) {
        this.endpoints = new VertexEndpoints(env);
        this.credentials = new VertexCredentials(clock);
        this.families = List.of(
                new VertexClaude(endpoints, new AnthropicCalls(clock, catalog)),
                new VertexGemini(endpoints, new GeminiChatCalls(clock, ids)));
    }

    @Override
    public boolean passesThrough(Deployment deployment, ModelRequest request) {
        return request.writtenIn(family(deployment).dialect());
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        VertexFamily family = family(deployment);
        if (request.dialect() != Dialect.OPENAI && request.writtenIn(family.dialect())) {
            return family.passThrough(deployment, request);
        }
        ObjectNode body = ForwardedBody.of(request.body(), deployment.params().providerModel());
        return family(deployment).request(deployment, request.operation(), body, DropParams.allowed(deployment, request),
                request.vendorHeaders());
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpoint, ObjectNode body) {
        return family(deployment).request(deployment, endpoint, body, DropParams.allowed(deployment), Map.of());
    }

    @Override
    public Future<UpstreamRequest> authorize(Deployment deployment, UpstreamRequest request) {
        return credentials.token(deployment).map(token -> {
            Map<String, String> headers = new LinkedHashMap<>(request.headers());
            headers.put("Authorization", "Bearer " + token.value());
            return request.withHeaders(headers);
        });
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return family(deployment).streamTranslator(deployment, request);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return familyReading(body).normaliseSuccess(request, body);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return familyReading(body).normaliseSuccess(body);
    }

    @Override
    public UpstreamErrors errors() {
        return GoogleErrors.ERRORS;
    }

    @Override
    public Optional<Secret> key(Deployment deployment) {
        return credentials.lastToken(deployment);
    }

    @Override
    public Optional<dev.sluice.vendors.BorrowedCredential> borrowed(Deployment deployment) {
        return VertexCredentials.borrowed(deployment);
    }

    @Override
    public Optional<String> misconfiguration(Deployment deployment) {
        if (endpoints.project(deployment).isEmpty()) {
            return Optional.of(VertexEndpoints.MISSING_PROJECT);
        }
        return Optional.empty();
    }

    private VertexFamily family(Deployment deployment) {
        String model = deployment.params().providerModel();
        return families.stream().filter(f -> f.serves(model)).findFirst().orElseThrow();
    }

    /** The family whose answer format a body is in; the answer does not say which deployment it came from. */
    private VertexFamily familyReading(Buffer body) {
        try {
            JsonNode tree = Json.parse(body.getBytes());
            return families.stream().filter(f -> f.readsAnswer(tree)).findFirst().orElse(families.getLast());
        } catch (IOException e) {
            return families.getLast();
        }
    }
}
