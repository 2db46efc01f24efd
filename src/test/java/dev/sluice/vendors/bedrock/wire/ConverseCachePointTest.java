package dev.sluice.vendors.bedrock.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.vendors.anthropic.wire.AnthropicMessages;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import org.junit.jupiter.api.Test;

/**
 * A caller's {@code cache_control} as Converse takes it: a {@code cachePoint} block right after
 * the system block, content block, tool result or tool that carries it, as LiteLLM writes it.
 */
class ConverseCachePointTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String CLAUDE_3_7 = "us.anthropic.claude-3-7-sonnet-20250219-v1:0";
    private static final String CLAUDE_4_5 = "global.anthropic.claude-sonnet-4-5-20250929-v1:0";

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    private static JsonNode body(String openAiJson, String modelId) throws Exception {
        return BedrockConverse.encodeRequest(OpenAiChat.decodeRequest(json(openAiJson)), modelId).body();
    }

    @Test
    void aSystemBlocksBreakpointIsACachePointAfterIt() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'system','content':'rules','cache_control':{'type':'ephemeral'}},"
                + "{'role':'system','content':'more'},{'role':'user','content':'hi'}]}", CLAUDE_3_7);

        assertThat(body.get("system")).isEqualTo(json("[{'text':'rules'},{'cachePoint':{'type':'default'}},{'text':'more'}]"));
    }

    @Test
    void aContentBlocksBreakpointIsACachePointAfterItInItsTurn() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'text','text':'doc','cache_control':{'type':'ephemeral'}},{'type':'text','text':'q'}]},"
                + "{'role':'assistant','content':'a','cache_control':{'type':'ephemeral'}},{'role':'user','content':'again'}]}",
                CLAUDE_3_7);

        assertThat(body.get("messages")).isEqualTo(json("[{'role':'user','content':[{'text':'doc'},{'cachePoint':{'type':'default'}},"
                + "{'text':'q'}]},{'role':'assistant','content':[{'text':'a'},{'cachePoint':{'type':'default'}}]},"
                + "{'role':'user','content':[{'text':'again'}]}]"));
    }

    @Test
    void aToolResultsBreakpointOwnOrInsideIsACachePointAfterTheToolResultBlock() throws Exception {
        String call = "{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function','function':{'name':'f','arguments':'{}'}},"
                + "{'id':'c2','type':'function','function':{'name':'f','arguments':'{}'}}]}";
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'hi'}," + call + ","
                + "{'role':'tool','tool_call_id':'c1','content':'one','cache_control':{'type':'ephemeral'}},"
                + "{'role':'tool','tool_call_id':'c2','content':[{'type':'text','text':'two','cache_control':{'type':'ephemeral'}}]}],"
                + "'tools':[{'type':'function','function':{'name':'f'}}]}", CLAUDE_3_7);

        JsonNode results = body.at("/messages/2/content");
        assertThat(results).hasSize(4);
        assertThat(results.at("/0/toolResult/toolUseId").asText()).isEqualTo("c1");
        assertThat(results.get(1)).isEqualTo(json("{'cachePoint':{'type':'default'}}"));
        assertThat(results.at("/2/toolResult/content")).as("Converse has no cache point inside a tool result")
                .isEqualTo(json("[{'text':'two'}]"));
        assertThat(results.get(3)).isEqualTo(json("{'cachePoint':{'type':'default'}}"));
    }

    @Test
    void aToolsBreakpointIsACachePointAfterItsSpecInTheToolList() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'hi'}],'tools':["
                + "{'type':'function','function':{'name':'a'},'cache_control':{'type':'ephemeral'}},"
                + "{'type':'function','function':{'name':'b'}}]}", CLAUDE_3_7);

        JsonNode tools = body.at("/toolConfig/tools");
        assertThat(tools).hasSize(3);
        assertThat(tools.at("/0/toolSpec/name").asText()).isEqualTo("a");
        assertThat(tools.get(1)).isEqualTo(json("{'cachePoint':{'type':'default'}}"));
        assertThat(tools.at("/2/toolSpec/name").asText()).isEqualTo("b");
    }

    @Test
    void aTtlIsWrittenOnlyForTheClaudeModelsThatTakeOne() throws Exception {
        String request = "{'model':'m','messages':[{'role':'user','content':'hi','cache_control':{'type':'ephemeral','ttl':'1h'}}]}";

        assertThat(body(request, CLAUDE_4_5).at("/messages/0/content/1")).isEqualTo(json("{'cachePoint':{'type':'default','ttl':'1h'}}"));
        assertThat(body(request, CLAUDE_3_7).at("/messages/0/content/1")).isEqualTo(json("{'cachePoint':{'type':'default'}}"));
    }

    @Test
    void novaTakesCachePointsAndAModelThatCannotGetsNone() throws Exception {
        String request = "{'model':'m','messages':[{'role':'system','content':'s','cache_control':{'type':'ephemeral'}},"
                + "{'role':'user','content':'hi','cache_control':{'type':'ephemeral'}}]}";

        assertThat(body(request, "amazon.nova-pro-v1:0").toString()).contains("cachePoint");
        assertThat(body(request, "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3").toString())
                .as("an application inference profile names no model").contains("cachePoint");
        JsonNode llama = body(request, "meta.llama3-1-70b-instruct-v1:0");
        assertThat(llama.toString()).doesNotContain("cachePoint");
        assertThat(llama.get("system")).isEqualTo(json("[{'text':'s'}]"));
    }

    @Test
    void noBreakpointNoCachePoint() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'system','content':'s'},{'role':'user','content':'hi'}],"
                + "'tools':[{'type':'function','function':{'name':'a'}}]}", CLAUDE_4_5);

        assertThat(body.toString()).doesNotContain("cachePoint");
    }

    @Test
    void anAnthropicCallersMarksReachConverseToo() throws Exception {
        JsonNode body = BedrockConverse.encodeRequest(AnthropicMessages.decodeRequest(json("{'model':'c','max_tokens':10,"
                + "'system':[{'type':'text','text':'rules','cache_control':{'type':'ephemeral'}}],"
                + "'messages':[{'role':'user','content':[{'type':'text','text':'doc','cache_control':{'type':'ephemeral'}}]}]}")),
                CLAUDE_3_7).body();

        assertThat(body.get("system")).isEqualTo(json("[{'text':'rules'},{'cachePoint':{'type':'default'}}]"));
        assertThat(body.at("/messages/0/content")).isEqualTo(json("[{'text':'doc'},{'cachePoint':{'type':'default'}}]"));
    }
}
