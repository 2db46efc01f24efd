package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Google AI Studio's {@code models/MODEL:batchEmbedContents}: one request per text, each
 * naming the model, answered with {@code embeddings[].values} in the same order. Google AI
 * Studio reports no token counts for embeddings, so the prompt is counted from the caller's
 * {@code input}, as the gateway counts any answer without a usage.
 */
final class GeminiEmbeddings {
    private GeminiEmbeddings() {}

    static byte[] body(String model, EmbeddingInputs inputs) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode requests = body.putArray("requests");
        for (String text : inputs.texts()) {
            ObjectNode request = requests.addObject().put("model", "models/" + model);
            request.putObject("content").putArray("parts").addObject().put("text", text);
            inputs.dimensions().ifPresent(d -> request.put("outputDimensionality", d));
        }
        return Json.bytes(body);
    }

    static Optional<OpenAiShape.ShapedAnswer> answer(String model, Buffer body, JsonNode request) {
        return Json.parseOrEmpty(body)
                .map(tree -> tree.has("embedding") ? Json.MAPPER.createArrayNode().add(tree.get("embedding"))
                        : tree.path("embeddings"))
                .filter(JsonNode::isArray)
                .flatMap(embeddings -> {
                    List<JsonNode> vectors = new ArrayList<>();
                    embeddings.forEach(e -> vectors.add(e.path("values")));
                    return EmbeddingInputs.answer(vectors, model, OptionalLong.empty(), request);
                });
    }

    static boolean isEmbeddingAnswer(JsonNode tree) {
        return tree.has("embeddings") || tree.has("embedding");
    }
}
