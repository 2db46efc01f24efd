package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.gemini.provider.EmbeddingInputs;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Vertex AI's text embeddings, {@code models/MODEL:predict} with {@code instances[].content}
 * and {@code parameters.outputDimensionality}, answered with
 * {@code predictions[].embeddings.values} and each text's {@code statistics.token_count},
 * whose sum is the usage. An answer missing a text's count has its prompt counted from the
 * caller's {@code input} instead, rather than charged short.
 */
final class VertexEmbeddings {
    private VertexEmbeddings() {}

    static ObjectNode body(EmbeddingInputs inputs) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode instances = body.putArray("instances");
        inputs.texts().forEach(text -> instances.addObject().put("content", text));
        inputs.dimensions().ifPresent(d -> body.putObject("parameters").put("outputDimensionality", d));
        return body;
    }

    static Optional<OpenAiShape.ShapedAnswer> answer(String model, Buffer body, JsonNode request) {
        return Json.parseOrEmpty(body).map(tree -> tree.path("predictions")).filter(JsonNode::isArray)
                .flatMap(predictions -> fromPredictions(model, predictions, request));
    }

    private static Optional<OpenAiShape.ShapedAnswer> fromPredictions(String model, JsonNode predictions, JsonNode request) {
        List<JsonNode> vectors = new ArrayList<>();
        long tokens = 0;
        boolean counted = true;
        for (JsonNode prediction : predictions) {
            vectors.add(prediction.path("embeddings").path("values"));
            JsonNode count = prediction.path("embeddings").path("statistics").path("token_count");
            counted &= count.isNumber();
            tokens += count.asLong(0);
        }
        return EmbeddingInputs.answer(vectors, model, counted ? OptionalLong.of(tokens) : OptionalLong.empty(), request);
    }
}
