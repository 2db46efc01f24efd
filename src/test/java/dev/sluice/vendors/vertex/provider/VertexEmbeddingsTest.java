package dev.sluice.vendors.vertex.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.EmbeddingAnswersTest;
import dev.sluice.wire.Json;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Vertex AI's predict answers for text embeddings, in OpenAI's shape and the caller's encoding. */
class VertexEmbeddingsTest {

    private static JsonNode json(String text) throws IOException {
        return Json.parse(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    private static Buffer predictions(String statistics) {
        return Buffer.buffer(("{'predictions':[{'embeddings':{'values':[0.75,-2.0]" + statistics + "}},"
                + "{'embeddings':{'values':[4.5]" + statistics + "}}]}").replace('\'', '"'));
    }

    @Test
    void aBase64EmbeddingDecodesBackToVertexsVector() throws IOException {
        JsonNode answer = VertexEmbeddings.answer("embed", predictions(",'statistics':{'token_count':3}"),
                json("{'input':['a','b'],'encoding_format':'base64'}")).orElseThrow().tree();

        assertThat(EmbeddingAnswersTest.floats(answer.at("/data/0/embedding").asText())).containsExactly(0.75f, -2.0f);
        assertThat(EmbeddingAnswersTest.floats(answer.at("/data/1/embedding").asText())).containsExactly(4.5f);
        assertThat(answer.at("/usage/prompt_tokens").asLong()).isEqualTo(6);
    }

    @Test
    void floatsAreAnsweredAsArrays() throws IOException {
        JsonNode answer = VertexEmbeddings.answer("embed", predictions(",'statistics':{'token_count':3}"),
                json("{'input':['a','b'],'encoding_format':'float'}")).orElseThrow().tree();

        assertThat(answer.at("/data/0/embedding/1").floatValue()).isEqualTo(-2.0f);
    }

    @Test
    void anAnswerWithoutTokenCountsHasItsPromptCountedRatherThanAFreeZero() throws IOException {
        JsonNode answer = VertexEmbeddings.answer("embed", predictions(""),
                json("{'input':['several words to count','and more']}")).orElseThrow().tree();

        assertThat(answer.at("/usage/prompt_tokens").asLong()).isPositive();
    }
}
