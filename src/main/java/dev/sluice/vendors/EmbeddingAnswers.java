package dev.sluice.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Finishes an OpenAI embeddings answer made from a vendor's vectors, as the caller asked for
 * it: with {@code encoding_format: base64} each vector is written as OpenAI writes it, the
 * base64 of its little-endian float32 values (the OpenAI Python SDK asks for base64 by
 * default); and an answer whose vendor reported no token count gets its prompt tokens
 * counted from the caller's {@code input}, since OpenAI's embeddings answer always has a
 * {@code usage} and a 0 there would make the call free and pass budgets and tpm limits.
 */
public final class EmbeddingAnswers {
    /** Input text counted with a tokenizer; beyond it, four bytes count as a token, as the gateway counts. */
    static final int COUNTED_BYTES = 64 * 1024;
    private static final PromptTokens PROMPT_TOKENS = new PromptTokens();

    private EmbeddingAnswers() {}

    /**
     * Puts the counted {@code usage} in {@code answer} when it has none, and writes its vectors
     * in base64 when {@code request} asks for it.
     *
     * @param answer  an embeddings list, its {@code data[].embedding} arrays of numbers
     * @param request the caller's OpenAI embeddings body
     * @param model   the model whose tokenizer counts a missing usage
     */
    public static ObjectNode finish(ObjectNode answer, JsonNode request, String model) {
        if (!answer.has("usage")) {
            long tokens = promptTokens(request.path("input"), model);
            answer.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        }
        if ("base64".equals(request.path("encoding_format").asText())) {
            for (JsonNode item : answer.path("data")) {
                if (item instanceof ObjectNode embedding && embedding.path("embedding").isArray()) {
                    embedding.put("embedding", base64(embedding.get("embedding")));
                }
            }
        }
        return answer;
    }

    /** A vector as OpenAI's base64 encoding writes it: its float32 values, little-endian. */
    public static String base64(JsonNode vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.size() * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        vector.forEach(value -> bytes.putFloat(value.floatValue()));
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    /** The tokens of an embeddings {@code input}, counted as the gateway counts a prompt that reports none. */
    static long promptTokens(JsonNode input, String model) {
        if (input.isMissingNode()) {
            return 0;
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.set("input", input);
        int bytes = body.toString().getBytes(StandardCharsets.UTF_8).length;
        // A very large input is estimated rather than counted: the count would hold the event loop.
        return bytes > COUNTED_BYTES ? bytes / 4 : PROMPT_TOKENS.count(body, TokenEncoding.forModel(model));
    }
}
