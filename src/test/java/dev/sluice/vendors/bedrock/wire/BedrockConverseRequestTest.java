package dev.sluice.vendors.bedrock.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import org.junit.jupiter.api.Test;

/** OpenAI chat requests written as Converse bodies: every trap of the translation. */
class BedrockConverseRequestTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String CLAUDE = "us.anthropic.claude-3-5-sonnet-20241022-v2:0";

    private static ConverseCall encode(String openAiJson, String modelId) throws Exception {
        return BedrockConverse.encodeRequest(OpenAiChat.decodeRequest(MAPPER.readTree(openAiJson.replace('\'', '"'))), modelId);
    }

    private static JsonNode body(String openAiJson) throws Exception {
        return encode(openAiJson, CLAUDE).body();
    }

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    @Test
    void everySystemAndDeveloperMessageJoinsSystemInOrderWhereverItStands() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'system','content':'one'},{'role':'user','content':'hi'},"
                + "{'role':'developer','content':'two'},{'role':'assistant','content':'yo'},"
                + "{'role':'system','content':[{'type':'text','text':'three'}]},{'role':'user','content':'again'}]}");

        assertThat(body.get("system")).isEqualTo(json("[{'text':'one'},{'text':'two'},{'text':'three'}]"));
        assertThat(body.get("messages")).isEqualTo(json("[{'role':'user','content':[{'text':'hi'}]},"
                + "{'role':'assistant','content':[{'text':'yo'}]},{'role':'user','content':[{'text':'again'}]}]"));
    }

    @Test
    void consecutiveTurnsOfOneRoleAreMergedSoTurnsAlternate() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'a'},{'role':'system','content':'s'},"
                + "{'role':'user','content':'b'},{'role':'assistant','content':'c'},{'role':'assistant','content':'d'}]}");

        assertThat(body.get("messages")).isEqualTo(json("[{'role':'user','content':[{'text':'a'},{'text':'b'}]},"
                + "{'role':'assistant','content':[{'text':'c'},{'text':'d'}]}]"));
    }

    @Test
    void parallelToolCallsAndTheirResultsBecomeOneTurnEachBoundByToolUseId() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'weather?'},"
                + "{'role':'assistant','content':null,'tool_calls':["
                + "{'id':'t1','type':'function','function':{'name':'w','arguments':'{\\'city\\':\\'Oslo\\'}'}},"
                + "{'id':'t2','type':'function','function':{'name':'w','arguments':''}}]},"
                + "{'role':'tool','tool_call_id':'t1','content':'cold'},{'role':'tool','tool_call_id':'t2','content':'warm'},"
                + "{'role':'user','content':'thanks'}],"
                + "'tools':[{'type':'function','function':{'name':'w','parameters':{'type':'object'}}}]}");

        assertThat(body.at("/messages/1")).isEqualTo(json("{'role':'assistant','content':["
                + "{'toolUse':{'toolUseId':'t1','name':'w','input':{'city':'Oslo'}}},"
                + "{'toolUse':{'toolUseId':'t2','name':'w','input':{}}}]}"));
        assertThat(body.at("/messages/2")).isEqualTo(json("{'role':'user','content':["
                + "{'toolResult':{'toolUseId':'t1','content':[{'text':'cold'}]}},"
                + "{'toolResult':{'toolUseId':'t2','content':[{'text':'warm'}]}},{'text':'thanks'}]}"));
        assertThat(body.get("messages")).hasSize(3);
    }

    @Test
    void toolArgumentsThatAreNotAJsonObjectAreRefused() {
        assertThatThrownBy(() -> body("{'model':'m','messages':[{'role':'assistant','tool_calls':["
                + "{'id':'t1','type':'function','function':{'name':'w','arguments':'[1]'}}]}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messages[0].content[0].function.arguments");
    }

    @Test
    void toolsAndEachToolChoiceMapToToolConfig() throws Exception {
        String tools = "'tools':[{'type':'function','function':{'name':'w','description':'weather',"
                + "'parameters':{'type':'object','properties':{'city':{'type':'string'}}}}},"
                + "{'type':'function','function':{'name':'t'}}]";
        JsonNode auto = body("{'model':'m','messages':[{'role':'user','content':'x'}]," + tools + ",'tool_choice':'auto'}");
        JsonNode required = body("{'model':'m','messages':[{'role':'user','content':'x'}]," + tools + ",'tool_choice':'required'}");
        JsonNode named = body("{'model':'m','messages':[{'role':'user','content':'x'}]," + tools
                + ",'tool_choice':{'type':'function','function':{'name':'t'}}}");
        JsonNode unset = body("{'model':'m','messages':[{'role':'user','content':'x'}]," + tools + "}");
        JsonNode none = body("{'model':'m','messages':[{'role':'user','content':'x'}]," + tools + ",'tool_choice':'none'}");

        assertThat(auto.at("/toolConfig/tools")).isEqualTo(json("[{'toolSpec':{'name':'w','description':'weather',"
                + "'inputSchema':{'json':{'type':'object','properties':{'city':{'type':'string'}}}}}},"
                + "{'toolSpec':{'name':'t','inputSchema':{'json':{'type':'object','properties':{}}}}}]"));
        assertThat(auto.at("/toolConfig/toolChoice")).isEqualTo(json("{'auto':{}}"));
        assertThat(required.at("/toolConfig/toolChoice")).isEqualTo(json("{'any':{}}"));
        assertThat(named.at("/toolConfig/toolChoice")).isEqualTo(json("{'tool':{'name':'t'}}"));
        assertThat(unset.at("/toolConfig").has("toolChoice")).isFalse();
        assertThat(none.has("toolConfig")).isFalse();
    }

    @Test
    void toolChoiceNoneWithToolCallsInTheConversationStillSendsAToolConfig() throws Exception {
        JsonNode body = body("{'model':'m','tool_choice':'none','messages':[{'role':'user','content':'x'},"
                + "{'role':'assistant','tool_calls':[{'id':'t1','type':'function','function':{'name':'w','arguments':'{}'}}]},"
                + "{'role':'tool','tool_call_id':'t1','content':'r'}],"
                + "'tools':[{'type':'function','function':{'name':'w'}}]}");

        assertThat(body.at("/toolConfig/tools/0/toolSpec/name").asText()).isEqualTo(ConverseExtras.PLACEHOLDER_TOOL);
        assertThat(body.at("/toolConfig/tools")).hasSize(1);
        assertThat(body.at("/toolConfig").has("toolChoice")).isFalse();
    }

    @Test
    void dataUrlImagesBecomeBytesWithTheirFormat() throws Exception {
        for (String[] type : new String[][] {{"png", "png"}, {"jpeg", "jpeg"}, {"gif", "gif"}, {"webp", "webp"}}) {
            JsonNode body = body("{'model':'m','messages':[{'role':'user','content':[{'type':'text','text':'what?'},"
                    + "{'type':'image_url','image_url':{'url':'data:image/" + type[0] + ";base64,QUJD'}}]}]}");
            assertThat(body.at("/messages/0/content/1")).isEqualTo(json("{'image':{'format':'" + type[1]
                    + "','source':{'bytes':'QUJD'}}}"));
        }
    }

    @Test
    void imageUrlsAndOtherFormatsAreRefusedWithA400Reason() {
        assertThatThrownBy(() -> body("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'image_url','image_url':{'url':'https://example.com/cat.png'}}]}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messages[0].content[0].image_url: https://example.com/cat.png")
                .hasMessageContaining("data URL");
        assertThatThrownBy(() -> body("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'image_url','image_url':{'url':'data:image/tiff;base64,QUJD'}}]}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("image/tiff");
    }

    @Test
    void samplingMapsToInferenceConfig() throws Exception {
        JsonNode completion = body("{'model':'m','messages':[{'role':'user','content':'x'}],'max_completion_tokens':50,"
                + "'temperature':0.2,'top_p':0.9,'stop':['END','']}");
        JsonNode legacy = body("{'model':'m','messages':[{'role':'user','content':'x'}],'max_tokens':70,'stop':'HALT'}");
        JsonNode none = body("{'model':'m','messages':[{'role':'user','content':'x'}]}");

        assertThat(completion.get("inferenceConfig")).isEqualTo(json("{'maxTokens':50,'temperature':0.2,'topP':0.9,"
                + "'stopSequences':['END']}"));
        assertThat(legacy.get("inferenceConfig")).isEqualTo(json("{'maxTokens':70,'stopSequences':['HALT']}"));
        assertThat(none.has("inferenceConfig")).isFalse();
    }

    @Test
    void jsonSchemaResponseFormatBecomesAForcedTool() throws Exception {
        ConverseCall call = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'response_format':"
                + "{'type':'json_schema','json_schema':{'name':'person','description':'a person',"
                + "'schema':{'type':'object','properties':{'name':{'type':'string'}}}}}}", CLAUDE);

        assertThat(call.responseTool()).isEqualTo("person");
        assertThat(call.body().get("toolConfig")).isEqualTo(json("{'tools':[{'toolSpec':{'name':'person',"
                + "'description':'a person','inputSchema':{'json':{'type':'object','properties':{'name':{'type':'string'}}}}}}],"
                + "'toolChoice':{'tool':{'name':'person'}}}"));
        assertThat(call.unsupported()).isEmpty();
    }

    @Test
    void jsonObjectResponseFormatBecomesTheOpenJsonToolAndTextIsANoOp() throws Exception {
        ConverseCall json = encode("{'model':'m','messages':[{'role':'user','content':'x'}],"
                + "'response_format':{'type':'json_object'}}", CLAUDE);
        ConverseCall text = encode("{'model':'m','messages':[{'role':'user','content':'x'}],"
                + "'response_format':{'type':'text'}}", CLAUDE);

        assertThat(json.responseTool()).isEqualTo("json_tool_call");
        assertThat(json.body().at("/toolConfig/tools/0/toolSpec/inputSchema/json")).isEqualTo(
                json("{'type':'object','additionalProperties':true,'properties':{}}"));
        assertThat(json.body().at("/toolConfig/toolChoice")).isEqualTo(json("{'tool':{'name':'json_tool_call'}}"));
        assertThat(text.responseTool()).isNull();
        assertThat(text.body().has("toolConfig")).isFalse();
    }

    @Test
    void reasoningEffortBecomesThinkingForAnthropicModelsOnly() throws Exception {
        ConverseCall claude = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'reasoning_effort':'medium'}", CLAUDE);
        ConverseCall capped = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'reasoning_effort':'low',"
                + "'max_tokens':9000}", CLAUDE);
        ConverseCall nova = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'reasoning_effort':'high'}",
                "amazon.nova-pro-v1:0");

        assertThat(claude.body().get("additionalModelRequestFields")).isEqualTo(
                json("{'thinking':{'type':'enabled','budget_tokens':2048}}"));
        assertThat(claude.body().at("/inferenceConfig/maxTokens").asInt()).isEqualTo(2048 + 4096);
        assertThat(capped.body().at("/additionalModelRequestFields/thinking/budget_tokens").asInt()).isEqualTo(1024);
        assertThat(capped.body().at("/inferenceConfig/maxTokens").asInt()).isEqualTo(9000);
        assertThat(nova.unsupported()).containsExactly("reasoning_effort");
        assertThat(nova.body().has("additionalModelRequestFields")).isFalse();
        assertThatThrownBy(() -> encode("{'model':'m','messages':[{'role':'user','content':'x'}],'reasoning_effort':'max'}", CLAUDE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reasoning_effort");
    }

    @Test
    void thinkingDoesNotForceTheResponseFormatTool() throws Exception {
        ConverseCall call = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'reasoning_effort':'low',"
                + "'response_format':{'type':'json_object'}}", CLAUDE);

        assertThat(call.body().at("/toolConfig/tools/0/toolSpec/name").asText()).isEqualTo("json_tool_call");
        assertThat(call.body().at("/toolConfig").has("toolChoice")).isFalse();
    }

    @Test
    void signedReasoningInTheHistoryGoesBackAsReasoningContent() throws Exception {
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'x'},{'role':'assistant','content':'42',"
                + "'thinking_blocks':[{'type':'thinking','thinking':'hmm','signature':'sig=='},"
                + "{'type':'redacted_thinking','data':'opaque'}]},{'role':'user','content':'why'}]}");

        assertThat(body.at("/messages/1/content")).containsExactlyInAnyOrder(json("{'text':'42'}"),
                json("{'reasoningContent':{'reasoningText':{'text':'hmm','signature':'sig=='}}}"),
                json("{'reasoningContent':{'redactedContent':'opaque'}}"));
    }

    @Test
    void reasoningInTheHistoryWithoutASignatureIsLeftOut() throws Exception {
        // Claude on Bedrock refuses a reasoningText without its signature.
        JsonNode body = body("{'model':'m','messages':[{'role':'user','content':'x'},{'role':'assistant','content':'42',"
                + "'reasoning_content':'I pondered'},{'role':'user','content':'why'},"
                + "{'role':'assistant','content':'','reasoning_content':'only this'},{'role':'user','content':'ok'}]}");

        assertThat(body.at("/messages/1/content")).containsExactly(json("{'text':'42'}"));
        assertThat(body.at("/messages/3/content")).as("a turn left empty still gets a block")
                .containsExactly(json("{'text':'.'}"));
        assertThat(body.toString()).doesNotContain("reasoningContent");
    }

    @Test
    void parametersConverseCannotTakeAreListedAndLeftOut() throws Exception {
        ConverseCall call = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'seed':7,'logprobs':true,"
                + "'n':1,'parallel_tool_calls':true,'stream_options':{'include_usage':true},'metadata':{'tag':'x'},"
                + "'presence_penalty':0.5,'user':'u-77'}", CLAUDE);
        ConverseCall many = encode("{'model':'m','messages':[{'role':'user','content':'x'}],'n':2,'parallel_tool_calls':false}",
                CLAUDE);

        assertThat(call.unsupported()).containsExactly("seed", "logprobs", "presence_penalty");
        assertThat(call.body().toString()).doesNotContain("seed").doesNotContain("logprobs").doesNotContain("presence")
                .as("user is never refused nor sent, as in LiteLLM").doesNotContain("u-77");
        assertThat(many.unsupported()).containsExactly("n", "parallel_tool_calls");
    }

    @Test
    void anImageInASystemMessageIsRefused() {
        assertThatThrownBy(() -> body("{'model':'m','messages':[{'role':'system','content':[{'type':'image_url',"
                + "'image_url':{'url':'data:image/png;base64,QUJD'}}]},{'role':'user','content':'x'}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messages[0].content[0]");
    }
}
