package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Embeddings answers finished as the caller asked: base64 vectors, and a usage that is never a free 0. */
public class EmbeddingAnswersTest {

    static JsonNode json(String text) {
        try {
            return Json.parse(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The floats of an OpenAI base64 embedding: little-endian float32 values. */
    public static float[] floats(String base64) {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(base64)).order(ByteOrder.LITTLE_ENDIAN);
        float[] floats = new float[bytes.remaining() / Float.BYTES];
        for (int i = 0; i < floats.length; i++) {
            floats[i] = bytes.getFloat();
        }
        assertThat(bytes.hasRemaining()).isFalse();
        return floats;
    }

    @Test
    void base64IsTheLittleEndianFloat32sOfEachVector() {
        ObjectNode answer = (ObjectNode) json("{'data':[{'embedding':[1.0,-2.5]},{'embedding':[0.125]}],'usage':{'prompt_tokens':2}}");
        EmbeddingAnswers.finish(answer, json("{'input':['a','b'],'encoding_format':'base64'}"), "m");

        assertThat(floats(answer.at("/data/0/embedding").asText())).containsExactly(1.0f, -2.5f);
        assertThat(floats(answer.at("/data/1/embedding").asText())).containsExactly(0.125f);
    }

    @Test
    void floatsStayArraysWhenAskedForOrByDefault() {
        ObjectNode asked = (ObjectNode) json("{'data':[{'embedding':[1.0]}],'usage':{'prompt_tokens':1}}");
        EmbeddingAnswers.finish(asked, json("{'input':'a','encoding_format':'float'}"), "m");
        ObjectNode unasked = (ObjectNode) json("{'data':[{'embedding':[1.0]}],'usage':{'prompt_tokens':1}}");
        EmbeddingAnswers.finish(unasked, json("{'input':'a'}"), "m");

        assertThat(asked.at("/data/0/embedding").isArray()).isTrue();
        assertThat(unasked.at("/data/0/embedding").isArray()).isTrue();
    }

    @Test
    void aReportedUsageIsKeptAndAMissingOneIsCountedFromTheInput() {
        ObjectNode reported = (ObjectNode) json("{'data':[],'usage':{'prompt_tokens':7,'total_tokens':7}}");
        EmbeddingAnswers.finish(reported, json("{'input':'hello world'}"), "m");
        ObjectNode unreported = (ObjectNode) json("{'data':[]}");
        EmbeddingAnswers.finish(unreported, json("{'input':['hello world','and more words here']}"), "text-embedding-004");

        assertThat(reported.at("/usage/prompt_tokens").asLong()).isEqualTo(7);
        long counted = TokenEncoding.CL100K_BASE.count("hello world") + TokenEncoding.CL100K_BASE.count("and more words here");
        assertThat(counted).isPositive();
        assertThat(unreported.at("/usage/prompt_tokens").asLong()).isEqualTo(counted);
        assertThat(unreported.at("/usage/total_tokens").asLong()).isEqualTo(counted);
    }

    @Test
    void aVeryLargeInputIsEstimatedAtFourBytesATokenRatherThanCounted() {
        String text = "x".repeat(EmbeddingAnswers.COUNTED_BYTES * 2);
        ObjectNode answer = (ObjectNode) json("{'data':[]}");
        EmbeddingAnswers.finish(answer, Json.MAPPER.createObjectNode().put("input", text), "m");

        assertThat(answer.at("/usage/prompt_tokens").asLong()).isBetween(text.length() / 4L, text.length() / 4L + 5);
    }
}
