package dev.sluice.vendors.bedrock.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A caller's {@code cache_control} through the gateway to a {@code bedrock/} Claude deployment
 * over real sockets: a {@code cachePoint} block reaches Converse right after the marked blocks,
 * and the cache read Bedrock reports comes back in OpenAI's {@code usage}.
 */
class BedrockPromptCachingGatewayTest {

    @Test
    void markedBlocksAndToolsReachConverseWithACachePointAfterEach() throws Exception {
        try (MockUpstream bedrock = MockUpstream.start(MockOptions.defaults("bedrock", MockMode.OK).withApi(MockApi.BEDROCK)
                        .withApiKey("AKIDMOCK"));
                TestGateway gateway = TestGateway.start("model_list:\n" + BedrockGatewayTest.deployment("claude",
                        BedrockGatewayTest.CLAUDE, "http://127.0.0.1:" + bedrock.port(), "bedrock-1"))) {
            String document = "The terms of service, clause by clause. ".repeat(20);
            HttpResponse<String> response = gateway.post("/v1/chat/completions", """
                    {"model":"claude","messages":[
                      {"role":"system","content":"Answer from the document.","cache_control":{"type":"ephemeral"}},
                      {"role":"user","content":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}},
                       {"type":"text","text":"What does clause one say?"}]}],
                     "tools":[{"type":"function","function":{"name":"lookup","parameters":{"type":"object","properties":{}}},
                       "cache_control":{"type":"ephemeral"}}]}""".formatted(document));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode sent = bedrock.receivedBodies().getFirst();
            JsonNode cachePoint = Json.parse("{\"cachePoint\":{\"type\":\"default\"}}".getBytes());
            assertThat(sent.at("/system/1")).isEqualTo(cachePoint);
            assertThat(sent.at("/messages/0/content/0/text").asText()).isEqualTo(document);
            assertThat(sent.at("/messages/0/content/1")).isEqualTo(cachePoint);
            assertThat(sent.at("/messages/0/content/2/text").asText()).isEqualTo("What does clause one say?");
            assertThat(sent.at("/toolConfig/tools/0/toolSpec/name").asText()).isEqualTo("lookup");
            assertThat(sent.at("/toolConfig/tools/1")).isEqualTo(cachePoint);

            JsonNode usage = Json.parse(response.body().getBytes()).get("usage");
            long cached = usage.at("/prompt_tokens_details/cached_tokens").asLong();
            assertThat(cached).isPositive();
            assertThat(usage.get("prompt_tokens").asLong()).as("prompt_tokens includes the cached ones").isGreaterThan(cached);
        }
    }
}
