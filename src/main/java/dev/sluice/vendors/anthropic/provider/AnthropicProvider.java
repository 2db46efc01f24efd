package dev.sluice.vendors.anthropic.provider;

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
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.Map;
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
    /** What Anthropic's {@code count_tokens} takes of a Messages body. */
    private static final java.util.List<String> COUNTED_FIELDS = java.util.List.of("model", "messages", "system", "tools",
            "tool_choice", "thinking", "mcp_servers");
    private final AnthropicEndpoint endpoint;
    private final AnthropicCalls calls;

    /** @param catalog where a model's output limit is found, for the {@code max_tokens} Anthropic requires */
    public AnthropicProvider(Map<String, String> env, Clock clock, ModelCatalog catalog) {
        this.endpoint = new AnthropicEndpoint(env);
        this.calls = new AnthropicCalls(clock, catalog);
    }

    @Override
    public Dialect dialect() {
        return Dialect.ANTHROPIC;
    }

    @Override
    public UpstreamRequest request(Deployment deployment, ModelRequest request) {
        checkChat(deployment, request.operation());
        return laidOut(deployment, calls.write(deployment, request, DropParams.allowed(deployment, request)), request.vendorHeaders());
    }

    /** A health probe's call, or any OpenAI body without a caller: nothing the caller addressed to Anthropic. */
    @Override
    public UpstreamRequest request(Deployment deployment, Operation endpointOperation, ObjectNode body) {
        checkChat(deployment, endpointOperation);
        return laidOut(deployment, calls.write(deployment, body, DropParams.allowed(deployment)), Map.of());
    }

    /** Anthropic's {@code /v1/messages/count_tokens}, for a caller of the Messages API. */
    @Override
    public Optional<UpstreamRequest> countTokens(Deployment deployment, ModelRequest request) {
        if (!passesThrough(deployment, request)) {
            return Optional.empty();
        }
        ObjectNode body = ForwardedBody.of(request.callerBody(), deployment.params().providerModel());
        body.retain(COUNTED_FIELDS); // a count takes the prompt, not the sampling or the output settings
        return Optional.of(new UpstreamRequest(endpoint.url(deployment) + "/count_tokens",
                endpoint.headers(deployment, request.vendorHeaders()), Json.bytes(body), java.util.List.of()));
    }

    private UpstreamRequest laidOut(Deployment deployment, AnthropicCalls.Written written, Map<String, String> callerHeaders) {
        return new UpstreamRequest(endpoint.url(deployment), endpoint.headers(deployment, callerHeaders),
                Json.bytes(written.body()), written.droppedParams());
    }

    private static void checkChat(Deployment deployment, Operation operation) {
        if (operation != Operation.CHAT_COMPLETIONS) {
            throw new IllegalArgumentException(AnthropicCalls.VENDOR + " serves chat completions only; " + operation.path()
                    + " cannot be sent to deployment model " + deployment.params().model());
        }
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return calls.streamTranslator(request);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return calls.answer(body);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return calls.answer(request, body);
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
