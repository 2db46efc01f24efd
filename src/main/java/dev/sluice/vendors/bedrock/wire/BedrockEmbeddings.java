package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * OpenAI's embeddings request and answer against Bedrock's {@code InvokeModel} bodies for the
 * two embedding families LiteLLM serves there: Amazon Titan Text Embeddings
 * ({@code {"inputText", "dimensions", "normalize"}} in, {@code {"embedding",
 * "inputTextTokenCount"}} out: one text a call) and Cohere Embed ({@code {"texts",
 * "input_type"}} in, {@code {"embeddings"}} out: many texts a call).
 */
public final class BedrockEmbeddings {
    /** Cohere on Bedrock requires an {@code input_type}; LiteLLM sends this one when the caller gives none. */
    static final String DEFAULT_COHERE_INPUT_TYPE = "search_document";

    private BedrockEmbeddings() {}

    /** The InvokeModel body for an OpenAI embeddings request to {@code modelId}. */
    public static ObjectNode encode(String modelId, JsonNode openAiBody) {
        List<String> inputs = inputs(openAiBody.path("input"));
        String model = modelId.toLowerCase(Locale.ROOT);
        if (model.contains("amazon.titan-embed")) {
            if (inputs.size() != 1) {
                throw new IllegalArgumentException("input: " + inputs.size() + " texts (expected: one text; Titan embeds"
                        + " one text a call, so send one request per text)");
            }
            ObjectNode body = NODES.objectNode().put("inputText", inputs.get(0));
            if (openAiBody.path("dimensions").canConvertToInt()) {
                body.put("dimensions", openAiBody.path("dimensions").asInt());
            }
            return body;
        }
        if (model.contains("cohere.embed")) {
            ObjectNode body = NODES.objectNode();
            ArrayNode texts = body.putArray("texts");
            inputs.forEach(texts::add);
            body.put("input_type", openAiBody.path("input_type").asText(DEFAULT_COHERE_INPUT_TYPE));
            return body;
        }
        throw new IllegalArgumentException("model: " + modelId + " (expected: an amazon.titan-embed-* or cohere.embed-*"
                + " model for embeddings on Bedrock)");
    }

    /**
     * An InvokeModel embeddings answer in OpenAI's embeddings shape, its vectors as float arrays.
     * Its {@code usage} is Titan's {@code inputTextTokenCount}; Cohere's answer has no token
     * count, so it has no {@code usage} (a 0 would make the call free): whoever answers the
     * caller counts the prompt.
     */
    public static ObjectNode decode(String modelId, JsonNode answer) {
        List<JsonNode> vectors = new ArrayList<>();
        JsonNode tokens = null;
        if (answer.path("embedding").isArray()) {
            vectors.add(answer.get("embedding"));
            tokens = answer.get("inputTextTokenCount");
        } else {
            JsonNode embeddings = answer.path("embeddings");
            // embeddings_by_type answers hold {"float": [[...]]}; embeddings_floats answers the arrays themselves.
            JsonNode floats = embeddings.isObject() ? embeddings.path("float") : embeddings;
            if (!floats.isArray()) {
                throw new IllegalArgumentException("embeddings: " + embeddings + " (expected: an array of vectors)");
            }
            floats.forEach(vectors::add);
        }
        if (vectors.isEmpty() && !answer.path("embedding").isArray()) {
            throw new IllegalArgumentException("embedding: missing (expected: a vector)");
        }
        ObjectNode out = NODES.objectNode().put("object", "list");
        ArrayNode data = out.putArray("data");
        for (int i = 0; i < vectors.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            item.set("embedding", vectors.get(i));
        }
        out.put("model", modelId);
        if (tokens != null && tokens.isIntegralNumber()) {
            out.putObject("usage").put("prompt_tokens", tokens.asLong()).put("total_tokens", tokens.asLong());
        }
        return out;
    }

    private static List<String> inputs(JsonNode input) {
        if (input.isTextual()) {
            return List.of(input.textValue());
        }
        if (input.isArray() && !input.isEmpty()) {
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < input.size(); i++) {
                if (!input.get(i).isTextual()) {
                    throw new IllegalArgumentException("input[" + i + "]: " + input.get(i)
                            + " (expected: text; Bedrock's embedding models take text, not token ids)");
                }
                texts.add(input.get(i).textValue());
            }
            return texts;
        }
        throw new IllegalArgumentException("input: " + input + " (expected: a string or a non-empty array of strings)");
    }
}
