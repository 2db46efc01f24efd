package dev.sluice.vendors.anthropic.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import org.junit.jupiter.api.Test;

/** OpenAI chat requests as Anthropic's Messages API takes them, one trap per test. */
class AnthropicRequestEncodingTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AnthropicMessages.Options OPTIONS = new AnthropicMessages.Options("claude-sonnet-4-5", 4096);

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static AnthropicMessages.Encoded encode(String openAiBody) {
        return AnthropicMessages.encodeRequest(OpenAiChat.decodeRequest(json(openAiBody)), OPTIONS);
    }

    private static ObjectNode body(String openAiBody) {
        return encode(openAiBody).body();
    }

    @Test
    void systemAndDeveloperMessagesInAnyPositionGoToTheTopLevelSystemInOrder() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'system','content':'one'},{'role':'user','content':'hi'},
                 {'role':'developer','content':'two'},{'role':'assistant','content':'yo'},{'role':'system','content':'three'},
                 {'role':'user','content':'again'}]}""");

        assertThat(body.get("system")).isEqualTo(json("""
                [{'type':'text','text':'one'},{'type':'text','text':'two'},{'type':'text','text':'three'}]"""));
        assertThat(body.get("messages")).isEqualTo(json("""
                [{'role':'user','content':[{'type':'text','text':'hi'}]},{'role':'assistant','content':[{'type':'text','text':'yo'}]},
                 {'role':'user','content':[{'type':'text','text':'again'}]}]"""));
        assertThat(body.get("model").asText()).isEqualTo("claude-sonnet-4-5");
    }

    @Test
    void consecutiveTurnsOfOneSpeakerAreMergedAndToolResultsAreUserTurns() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':'a'},{'role':'user','content':'b'},
                 {'role':'assistant','content':null,'tool_calls':[
                   {'id':'toolu_1','type':'function','function':{'name':'f','arguments':'{\\'x\\':1}'}},
                   {'id':'toolu_2','type':'function','function':{'name':'g','arguments':''}}]},
                 {'role':'tool','tool_call_id':'toolu_1','content':'one'},{'role':'tool','tool_call_id':'toolu_2','content':'two'},
                 {'role':'user','content':'thanks'}]}""");

        assertThat(body.get("messages")).isEqualTo(json("""
                [{'role':'user','content':[{'type':'text','text':'a'},{'type':'text','text':'b'}]},
                 {'role':'assistant','content':[{'type':'tool_use','id':'toolu_1','name':'f','input':{'x':1}},
                                                 {'type':'tool_use','id':'toolu_2','name':'g','input':{}}]},
                 {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_1','content':'one'},
                                            {'type':'tool_result','tool_use_id':'toolu_2','content':'two'},
                                            {'type':'text','text':'thanks'}]}]"""));
    }

    @Test
    void toolArgumentsThatAreNotAJsonObjectAreRefused() {
        assertThatThrownBy(() -> body("""
                {'model':'g','messages':[{'role':'user','content':'a'},{'role':'assistant','tool_calls':[
                   {'id':'t','type':'function','function':{'name':'f','arguments':'[1]'}}]}]}"""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages[1].content[0].function.arguments");
    }

    @Test
    void imagesAsDataUrlsAreBase64SourcesAndHttpsUrlsAreUrlSources() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':[{'type':'text','text':'look'},
                  {'type':'image_url','image_url':{'url':'data:image/png;base64,iVBOR'}},
                  {'type':'image_url','image_url':{'url':'https://example.com/cat.jpg','detail':'high'}}]}]}""");

        assertThat(body.at("/messages/0/content")).isEqualTo(json("""
                [{'type':'text','text':'look'},
                 {'type':'image','source':{'type':'base64','media_type':'image/png','data':'iVBOR'}},
                 {'type':'image','source':{'type':'url','url':'https://example.com/cat.jpg'}}]"""));
    }

    @Test
    void toolsAndEveryToolChoiceAreAnthropics() {
        String tools = "'tools':[{'type':'function','function':{'name':'f','description':'d','parameters':{'type':'object','properties':{'x':{'type':'string'}}}}},"
                + "{'type':'function','function':{'name':'g'}}]";
        String start = "{'model':'g','messages':[{'role':'user','content':'a'}]," + tools;

        ObjectNode auto = body(start + ",'tool_choice':'auto'}");
        assertThat(auto.get("tools")).isEqualTo(json("""
                [{'name':'f','description':'d','input_schema':{'type':'object','properties':{'x':{'type':'string'}}}},
                 {'name':'g','input_schema':{'type':'object','properties':{}}}]"""));
        assertThat(auto.get("tool_choice")).isEqualTo(json("{'type':'auto'}"));
        assertThat(body(start + ",'tool_choice':'none'}").get("tool_choice")).isEqualTo(json("{'type':'none'}"));
        assertThat(body(start + ",'tool_choice':'required'}").get("tool_choice")).isEqualTo(json("{'type':'any'}"));
        assertThat(body(start + ",'tool_choice':{'type':'function','function':{'name':'g'}}}").get("tool_choice"))
                .isEqualTo(json("{'type':'tool','name':'g'}"));
        assertThat(body(start + "}").has("tool_choice")).isFalse();
    }

    @Test
    void parallelToolCallsFalseDisablesParallelToolUse() {
        String start = "{'model':'g','messages':[{'role':'user','content':'a'}],'tools':[{'type':'function','function':{'name':'f'}}]";

        assertThat(body(start + ",'parallel_tool_calls':false}").get("tool_choice"))
                .isEqualTo(json("{'type':'auto','disable_parallel_tool_use':true}"));
        assertThat(body(start + ",'parallel_tool_calls':false,'tool_choice':'required'}").get("tool_choice"))
                .isEqualTo(json("{'type':'any','disable_parallel_tool_use':true}"));
        assertThat(body(start + ",'parallel_tool_calls':true}").has("tool_choice")).isFalse();
    }

    @Test
    void toolMessagesAreToolResultsBoundToTheirToolUseIds() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':'a'},{'role':'assistant','tool_calls':[
                   {'id':'toolu_9','type':'function','function':{'name':'f','arguments':'{}'}}]},
                 {'role':'tool','tool_call_id':'toolu_9','content':[{'type':'text','text':'part one, '},{'type':'text','text':'part two'}]}]}""");

        assertThat(body.at("/messages/2")).isEqualTo(json("""
                {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_9','content':'part one, part two'}]}"""));
    }

    @Test
    void structuredOutputIsAForcedJsonTool() {
        AnthropicMessages.Encoded encoded = encode("""
                {'model':'g','messages':[{'role':'user','content':'a'}],
                 'response_format':{'type':'json_schema','json_schema':{'name':'p','schema':{'type':'object','properties':{'age':{'type':'integer'}},'required':['age']}}}}""");

        assertThat(encoded.jsonMode()).isTrue();
        assertThat(encoded.body().get("tools")).isEqualTo(json("""
                [{'name':'json_tool_call','description':'Answer in the JSON the input schema describes.',
                  'input_schema':{'type':'object','properties':{'age':{'type':'integer'}},'required':['age']}}]"""));
        assertThat(encoded.body().get("tool_choice")).isEqualTo(json("{'type':'tool','name':'json_tool_call'}"));

        AnthropicMessages.Encoded object = encode("{'model':'g','messages':[{'role':'user','content':'a'}],'response_format':{'type':'json_object'}}");
        assertThat(object.jsonMode()).isTrue();
        assertThat(object.body().at("/tools/0/input_schema")).isEqualTo(json("{'type':'object','additionalProperties':true,'properties':{}}"));
        assertThat(encode("{'model':'g','messages':[{'role':'user','content':'a'}],'response_format':{'type':'text'}}").jsonMode()).isFalse();
    }

    @Test
    void structuredOutputWhileThinkingOffersTheJsonToolWithoutForcingIt() {
        // Anthropic answers 400 "Thinking may not be enabled when tool_choice forces tool use".
        AnthropicMessages.Encoded effort = encode("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'reasoning_effort':'low',
                 'response_format':{'type':'json_schema','json_schema':{'name':'p','schema':{'type':'object'}}}}""");
        assertThat(effort.jsonMode()).isTrue();
        assertThat(effort.body().at("/tools/0/name").asText()).isEqualTo("json_tool_call");
        assertThat(effort.body().get("tool_choice")).isEqualTo(json("{'type':'auto'}"));

        ObjectNode own = body("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'thinking':{'type':'enabled','budget_tokens':2000},
                 'parallel_tool_calls':false,'response_format':{'type':'json_object'}}""");
        assertThat(own.get("tool_choice")).isEqualTo(json("{'type':'auto','disable_parallel_tool_use':true}"));

        ObjectNode off = body("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'thinking':{'type':'disabled'},
                 'response_format':{'type':'json_object'}}""");
        assertThat(off.get("tool_choice")).as("thinking turned off still forces the tool")
                .isEqualTo(json("{'type':'tool','name':'json_tool_call'}"));
    }

    @Test
    void samplingStopAndTokenLimitAreMapped() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'temperature':0.5,'top_p':0.9,'stop':'END','max_tokens':77}""");

        assertThat(body.get("temperature").asDouble()).isEqualTo(0.5);
        assertThat(body.get("top_p").asDouble()).isEqualTo(0.9);
        assertThat(body.get("stop_sequences")).isEqualTo(json("['END']"));
        assertThat(body.get("max_tokens").asInt()).isEqualTo(77);
        ObjectNode completionTokens = body("{'model':'g','messages':[{'role':'user','content':'a'}],'max_completion_tokens':12,'stop':['x','y']}");
        assertThat(completionTokens.get("max_tokens").asInt()).isEqualTo(12);
        assertThat(completionTokens.get("stop_sequences")).isEqualTo(json("['x','y']"));
    }

    @Test
    void maxTokensDefaultsToTheGivenDefaultSinceAnthropicRequiresIt() {
        assertThat(body("{'model':'g','messages':[{'role':'user','content':'a'}]}").get("max_tokens").asInt()).isEqualTo(4096);
        ObjectNode withCatalog = AnthropicMessages.encodeRequest(OpenAiChat.decodeRequest(json(
                "{'model':'g','messages':[{'role':'user','content':'a'}]}")), new AnthropicMessages.Options("m", 64000)).body();
        assertThat(withCatalog.get("max_tokens").asInt()).isEqualTo(64000);
    }

    @Test
    void reasoningEffortIsAThinkingBudgetAsLiteLlmMapsIt() {
        String start = "{'model':'g','messages':[{'role':'user','content':'a'}],'reasoning_effort':";

        assertThat(body(start + "'low'}").get("thinking")).isEqualTo(json("{'type':'enabled','budget_tokens':1024}"));
        assertThat(body(start + "'medium'}").get("thinking")).isEqualTo(json("{'type':'enabled','budget_tokens':2048}"));
        ObjectNode high = body(start + "'high'}");
        assertThat(high.get("thinking")).isEqualTo(json("{'type':'enabled','budget_tokens':4096}"));
        assertThat(high.get("max_tokens").asInt()).as("room beyond the budget").isEqualTo(8192);
        assertThat(body(start + "'none'}").has("thinking")).isFalse();
        assertThatThrownBy(() -> body(start + "'extreme'}")).hasMessageContaining("reasoning_effort");
    }

    @Test
    void signedThinkingGoesBackToAnthropicAndUnsignedReasoningDoesNot() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':'a'},{'role':'assistant','content':'b',
                  'reasoning_content':'ignored when blocks are given',
                  'thinking_blocks':[{'type':'thinking','thinking':'hmm','signature':'sig=='},{'type':'redacted_thinking','data':'enc'}]},
                 {'role':'user','content':'c'},{'role':'assistant','content':'d','reasoning_content':'unsigned'},{'role':'user','content':'e'}]}""");

        assertThat(body.at("/messages/1/content")).isEqualTo(json("""
                [{'type':'thinking','thinking':'hmm','signature':'sig=='},{'type':'redacted_thinking','data':'enc'},{'type':'text','text':'b'}]"""));
        assertThat(body.at("/messages/3/content")).isEqualTo(json("[{'type':'text','text':'d'}]"));
    }

    @Test
    void parametersAnthropicCannotTakeAreListedAndLeftOut() {
        AnthropicMessages.Encoded encoded = encode("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'logprobs':true,'n':2,'presence_penalty':0.1,
                 'frequency_penalty':0.2,'seed':7,'logit_bias':{'1':2},'user':'u-1','top_k':5}""");

        assertThat(encoded.unsupported()).containsExactly("logprobs", "n", "presence_penalty", "frequency_penalty", "seed", "logit_bias");
        assertThat(encoded.body().fieldNames()).toIterable()
                .doesNotContain("logprobs", "n", "presence_penalty", "frequency_penalty", "seed", "logit_bias", "user");
        assertThat(encoded.body().get("metadata")).isEqualTo(json("{'user_id':'u-1'}"));
        assertThat(encoded.body().get("top_k").asInt()).isEqualTo(5);
        assertThat(encode("{'model':'g','messages':[{'role':'user','content':'a'}],'n':1,'logprobs':false}").unsupported()).isEmpty();
    }

    @Test
    void streamIsAskedAndFieldsAnthropicDoesNotKnowAreNotSent() {
        ObjectNode body = body("""
                {'model':'g','messages':[{'role':'user','content':'a'}],'stream':true,'stream_options':{'include_usage':true},
                 'metadata':{'tag':'x'},'fallbacks':['other']}""");

        assertThat(body.get("stream").asBoolean()).isTrue();
        assertThat(body.fieldNames()).toIterable().containsExactlyInAnyOrder("model", "messages", "max_tokens", "stream");
    }

    @Test
    void anImageFromTheAssistantIsRefused() {
        assertThatThrownBy(() -> AnthropicTurns.messages(java.util.List.of(new dev.sluice.model.Message(dev.sluice.model.Role.ASSISTANT,
                java.util.List.of(dev.sluice.model.ContentPart.Image.atUrl("https://x/y.png", null)), null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("assistant");
    }
}
