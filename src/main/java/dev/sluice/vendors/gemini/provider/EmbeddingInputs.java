package dev.sluice.vendors.gemini.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.EmbeddingAnswers;
import dev.sluice.vendors.OpenAiShape;
import dev.sluice.vendors.UnsupportedParam;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * An OpenAI embeddings request as Google's embedding endpoints take it, and their vectors
 * answered in OpenAI's shape. Google embeds text only: {@code input} is a string or a list of
 * strings (token arrays are refused), {@code dimensions} is {@code outputDimensionality}, and
 * {@code encoding_format} is {@code float} or {@code base64} (Google answers floats; base64 is
 * written from them as OpenAI writes it).
 *
 * @param texts        the texts to embed, in order
 * @param dimensions   the caller's {@code dimensions}, when given
 * @param droppedParams the caller's parameters left out under {@code drop_params}
 */
public record EmbeddingInputs(List<String> texts, Optional<Integer> dimensions, List<String> droppedParams) {
    private static final Set<String> KNOWN = Set.of("model", "input", "dimensions", "encoding_format");
    private static final Set<String> ENCODINGS = Set.of("float", "base64");

    /**
     * @throws UnsupportedParam when a parameter has no Google counterpart and {@code drop_params} is off
     * @throws IllegalArgumentException when {@code input} is not text
     */
    public static EmbeddingInputs of(ObjectNode body, boolean dropParams) {
        JsonNode input = body.path("input");
        List<String> texts = new ArrayList<>();
        if (input.isTextual()) {
            texts.add(input.textValue());
        } else if (input.isArray() && !input.isEmpty()) {
            for (int i = 0; i < input.size(); i++) {
                if (!input.get(i).isTextual()) {
                    throw new IllegalArgumentException("input[" + i + "]: " + input.get(i)
                            + " (expected: a string; Google's embedding models take text, not token arrays)");
                }
                texts.add(input.get(i).textValue());
            }
        } else {
            throw new IllegalArgumentException("input: " + input + " (expected: a string or a non-empty list of strings)");
        }
        List<String> dropped = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            String name = field.getKey();
            boolean unknownEncoding = name.equals("encoding_format") && !ENCODINGS.contains(field.getValue().asText());
            if ((!KNOWN.contains(name) || unknownEncoding) && !field.getValue().isNull()) {
                if (!dropParams) {
                    throw new UnsupportedParam(name, "Google's embedding API");
                }
                dropped.add(name);
            }
        }
        JsonNode dimensions = body.path("dimensions");
        return new EmbeddingInputs(texts, dimensions.canConvertToInt() ? Optional.of(dimensions.asInt()) : Optional.empty(), dropped);
    }

    /**
     * OpenAI's {@code {"object":"list","data":[{"object":"embedding","index","embedding"}],"model","usage"}},
     * in the caller's {@code encoding_format}.
     *
     * @param promptTokens the vendor's token count; without one the prompt is counted from {@code request}
     * @param request      the caller's OpenAI embeddings body
     */
    public static Optional<OpenAiShape.ShapedAnswer> answer(List<JsonNode> vectors, String model, OptionalLong promptTokens,
            JsonNode request) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode().put("object", "list");
        ArrayNode data = answer.putArray("data");
        for (int i = 0; i < vectors.size(); i++) {
            if (!vectors.get(i).isArray()) {
                return Optional.empty();
            }
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            item.set("embedding", vectors.get(i));
        }
        answer.put("model", model);
        promptTokens.ifPresent(tokens -> answer.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens));
        Buffer body = Json.buffer(EmbeddingAnswers.finish(answer, request, model));
        return OpenAiShape.answer(body);
    }
}
