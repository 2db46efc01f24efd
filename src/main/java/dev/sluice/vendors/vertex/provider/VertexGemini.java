package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.Deployment;
import dev.sluice.model.ModelRequest;
import dev.sluice.model.Operation;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UpstreamRequest;
import dev.sluice.vendors.gemini.provider.EmbeddingInputs;
import dev.sluice.vendors.gemini.provider.GeminiChatCalls;
import dev.sluice.vendors.stream.StreamTranslator;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Google's own models on Vertex AI: Gemini chat through the publisher model's
 * {@code generateContent} / {@code streamGenerateContent?alt=sse} (the same body as Google AI
 * Studio's) and text embeddings through {@code predict}. It serves every model no other family
 * claims, as LiteLLM reads an unknown {@code vertex_ai/} model as Gemini.
 */
record VertexGemini(VertexEndpoints endpoints, GeminiChatCalls chat) implements VertexFamily {
    @Override
    public boolean serves(String model) {
        return true;
    }

    @Override
    public UpstreamRequest request(Deployment deployment, Operation operation, ObjectNode body, boolean dropParams,
            Map<String, String> callerHeaders) {
        Map<String, String> headers = new LinkedHashMap<>(deployment.params().vendor().extraHeaders());
        return switch (operation) {
            case CHAT_COMPLETIONS -> {
                GeminiChatCalls.Written written = chat.write(body, dropParams);
                String method = written.stream() ? "streamGenerateContent?alt=sse" : "generateContent";
                yield new UpstreamRequest(endpoints.publisherModel(deployment, "google", method), headers, written.body(),
                        written.droppedParams());
            }
            case EMBEDDINGS -> {
                EmbeddingInputs inputs = EmbeddingInputs.of(body, dropParams);
                yield new UpstreamRequest(endpoints.publisherModel(deployment, "google", "predict"), headers,
                        Json.bytes(VertexEmbeddings.body(inputs)), inputs.droppedParams());
            }
            default -> throw new IllegalArgumentException(
                    operation.path() + ": not served by Gemini on Vertex AI (expected: /chat/completions or /embeddings)");
        };
    }

    @Override
    public StreamTranslator streamTranslator(Deployment deployment, ModelRequest request) {
        return chat.streamTranslator(deployment, request);
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(ModelRequest request, Buffer body) {
        return chat.answer(request, body, VertexEmbeddings::answer);
    }

    @Override
    public boolean readsAnswer(JsonNode tree) {
        return GeminiChatCalls.isChatAnswer(tree) || tree.has("predictions");
    }

    @Override
    public Optional<OpenAiShape.ShapedAnswer> normaliseSuccess(Buffer body) {
        return chat.probeAnswer(body, tree -> tree.has("predictions"), VertexEmbeddings::answer);
    }
}
