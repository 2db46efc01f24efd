package dev.sluice.vendors.bedrock.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** OpenAI embeddings requests and answers against Titan's and Cohere's InvokeModel bodies. */
class BedrockEmbeddingsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    @Test
    void titanTakesOneTextAndItsDimensions() throws Exception {
        assertThat(BedrockEmbeddings.encode("amazon.titan-embed-text-v2:0", json("{'input':'hello','dimensions':256}")))
                .isEqualTo(json("{'inputText':'hello','dimensions':256}"));
        assertThat(BedrockEmbeddings.encode("amazon.titan-embed-text-v1", json("{'input':['one']}")))
                .isEqualTo(json("{'inputText':'one'}"));
        assertThatThrownBy(() -> BedrockEmbeddings.encode("amazon.titan-embed-text-v1", json("{'input':['a','b']}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one text");
    }

    @Test
    void cohereTakesAllTextsWithAnInputType() throws Exception {
        assertThat(BedrockEmbeddings.encode("cohere.embed-english-v3", json("{'input':['a','b']}")))
                .isEqualTo(json("{'texts':['a','b'],'input_type':'search_document'}"));
        assertThat(BedrockEmbeddings.encode("cohere.embed-english-v3", json("{'input':'q','input_type':'search_query'}")))
                .isEqualTo(json("{'texts':['q'],'input_type':'search_query'}"));
    }

    @Test
    void tokenIdsAndOtherModelsAreRefused() {
        assertThatThrownBy(() -> BedrockEmbeddings.encode("cohere.embed-english-v3", json("{'input':[[1,2]]}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("input[0]");
        assertThatThrownBy(() -> BedrockEmbeddings.encode("meta.llama3", json("{'input':'x'}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("titan-embed");
    }

    @Test
    void answersReadAsOpenAiEmbeddingLists() throws Exception {
        assertThat(BedrockEmbeddings.decode("g", json("{'embedding':[0.5,-0.5],'inputTextTokenCount':3}")).toString())
                .isEqualTo(json("{'object':'list','data':[{'object':'embedding','index':0,'embedding':[0.5,-0.5]}],"
                        + "'model':'g','usage':{'prompt_tokens':3,'total_tokens':3}}").toString());
        JsonNode cohere = BedrockEmbeddings.decode("g", json("{'id':'x','embeddings':[[1.0],[2.0]],'texts':['a','b']}"));
        assertThat(cohere.at("/data/1/embedding/0").asDouble()).isEqualTo(2.0);
        JsonNode byType = BedrockEmbeddings.decode("g", json("{'embeddings':{'float':[[1.0]]}}"));
        assertThat(byType.at("/data/0/embedding/0").asDouble()).isEqualTo(1.0);
    }

    @Test
    void cohereReportsNoTokenCountSoItsAnswerHasNoUsageRatherThanAFreeZero() throws Exception {
        assertThat(BedrockEmbeddings.decode("g", json("{'embeddings':[[1.0]],'texts':['a']}")).has("usage")).isFalse();
        assertThat(BedrockEmbeddings.decode("g", json("{'embedding':[1.0]}")).has("usage")).isFalse();
    }
}
