package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.model.Dialect;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.anthropic.provider.AnthropicCalls;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Anthropic's Claude on Vertex AI ({@code vertex_ai/claude-...}): the Messages API body, less
 * {@code model} (the URL names it) and with {@code anthropic_version: vertex-2023-10-16}, sent
 * to the publisher model's {@code rawPredict}, or {@code streamRawPredict} for a stream; the
 * answers and server-sent events are Anthropic's own. Only chat is served.
 */
record VertexClaude(VertexEndpoints endpoints, AnthropicCalls calls) implements VertexFamily {
    /** The Messages API version Vertex AI takes in the body, in place of Anthropic's header. */
    static final String ANTHROPIC_VERSION = "vertex-2023-10-16";

    @Override
    public boolean serves(String model) {
        return model.toLowerCase(Locale.ROOT).startsWith("claude");
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation operation, ObjectNode body, boolean dropParams,
            Map<String, String> callerHeaders) {
        if (operation != Operation.CHAT_COMPLETIONS) {
            throw new IllegalArgumentException(operation.path() + ": not served by Claude on Vertex AI (expected: /chat/completions)");
        }
        return laidOut(deployment, calls.write(deployment, body, dropParams), callerHeaders);
    }

    @Override
    public Dialect dialect() {
        return Dialect.ANTHROPIC;
    }

    @Override
    public UpstreamRequest passThrough(Deployment deployment, ModelRequest request) {
        return laidOut(deployment, calls.passThrough(deployment, request), request.vendorHeaders());
    }

    private UpstreamRequest laidOut(Deployment deployment, AnthropicCalls.Written written, Map<String, String> callerHeaders) {
        ObjectNode messages = written.body();
        messages.remove("model");
        messages.put("anthropic_version", ANTHROPIC_VERSION);
        String method = written.stream() ? "streamRawPredict" : "rawPredict";
        return new UpstreamRequest(endpoints.publisherModel(deployment, "anthropic", method),
                AnthropicCalls.headers(deployment, callerHeaders), Json.bytes(messages), written.droppedParams());
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return calls.streamTranslator(request);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return calls.answer(request, body);
    }

    @Override
    public boolean readsAnswer(JsonNode tree) {
        return AnthropicCalls.isAnswer(tree);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return calls.answer(body);
    }
}
