package dev.sluice.vendors.anthropic.wire;

import static dev.sluice.vendors.anthropic.wire.AnthropicRequestEncodingTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prompt-cache breakpoints on their way to Anthropic ({@code cache_control} on the system
 * block, content block, {@code tool_result} block or tool that carries one) and back from a
 * Messages request.
 */
class AnthropicCacheControlTest {
    private static final AnthropicMessages.Options OPTIONS = new AnthropicMessages.Options("claude-sonnet-4-5", 4096);
    private static final CacheControl HOUR = new CacheControl("1h");

    private static ObjectNode body(String openAiBody) {
        return AnthropicMessages.encodeRequest(OpenAiChat.decodeRequest(json(openAiBody)), OPTIONS).body();
    }

    @Test
    void aSystemMessagesBreakpointMarksItsSystemBlock() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'system','content':'rules','cache_control':{'type':'ephemeral'}},"
                + "{'role':'system','content':[{'type':'text','text':'more','cache_control':{'type':'ephemeral','ttl':'1h'}}]},"
                + "{'role':'user','content':'hi'}]}");

        assertThat(body.get("system")).isEqualTo(json("[{'type':'text','text':'rules','cache_control':{'type':'ephemeral'}},"
                + "{'type':'text','text':'more','cache_control':{'type':'ephemeral','ttl':'1h'}}]"));
    }

    @Test
    void textAndImagePartsCarryTheirBreakpointsOntoTheirBlocks() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'user','content':["
                + "{'type':'image_url','image_url':{'url':'data:image/png;base64,AAAA'},'cache_control':{'type':'ephemeral'}},"
                + "{'type':'text','text':'doc','cache_control':{'type':'ephemeral','ttl':'5m'}},{'type':'text','text':'q'}]}]}");

        JsonNode content = body.at("/messages/0/content");
        assertThat(content.at("/0/type").asText()).isEqualTo("image");
        assertThat(content.at("/0/cache_control")).isEqualTo(json("{'type':'ephemeral'}"));
        assertThat(content.get(1)).isEqualTo(json("{'type':'text','text':'doc','cache_control':{'type':'ephemeral','ttl':'5m'}}"));
        assertThat(content.get(2).has("cache_control")).isFalse();
    }

    @Test
    void aStringMessageWithABreakpointBecomesOneMarkedTextBlock() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'user','content':'hello','cache_control':{'type':'ephemeral'}}]}");

        assertThat(body.at("/messages/0/content")).isEqualTo(json("[{'type':'text','text':'hello','cache_control':{'type':'ephemeral'}}]"));
    }

    @Test
    void aToolMessagesBreakpointMarksItsToolResultBlock() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'user','content':'weather?'},"
                + "{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function','function':{'name':'f','arguments':'{}'}}]},"
                + "{'role':'tool','tool_call_id':'c1','content':'sunny','cache_control':{'type':'ephemeral'}}]}");

        assertThat(body.at("/messages/2/content/0")).isEqualTo(json("{'type':'tool_result','tool_use_id':'c1','content':'sunny',"
                + "'cache_control':{'type':'ephemeral'}}"));
    }

    @Test
    void aMarkedTextInsideAToolResultKeepsItsBlockForm() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'user','content':'weather?'},"
                + "{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function','function':{'name':'f','arguments':'{}'}}]},"
                + "{'role':'tool','tool_call_id':'c1','content':[{'type':'text','text':'sunny','cache_control':{'type':'ephemeral'}}]}]}");

        assertThat(body.at("/messages/2/content/0/content")).as("a string could not carry the breakpoint")
                .isEqualTo(json("[{'type':'text','text':'sunny','cache_control':{'type':'ephemeral'}}]"));
        assertThat(body.at("/messages/2/content/0").has("cache_control")).isFalse();
    }

    @Test
    void aToolsBreakpointMarksItsToolWithItsTtl() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'user','content':'hi'}],'tools':["
                + "{'type':'function','function':{'name':'a'}},"
                + "{'type':'function','function':{'name':'b'},'cache_control':{'type':'ephemeral','ttl':'1h'}}]}");

        assertThat(body.at("/tools/0").has("cache_control")).isFalse();
        assertThat(body.at("/tools/1/cache_control")).isEqualTo(json("{'type':'ephemeral','ttl':'1h'}"));
    }

    @Test
    void noBreakpointNoCacheControl() {
        ObjectNode body = body("{'model':'g','messages':[{'role':'system','content':'s'},{'role':'user','content':'hi'}],"
                + "'tools':[{'type':'function','function':{'name':'a'}}]}");

        assertThat(body.toString()).doesNotContain("cache_control");
    }

    @Test
    void aMessagesRequestsBreakpointsAreReadAndWrittenBackTheSame() {
        JsonNode sent = json("""
                {'model':'claude-x','max_tokens':100,
                 'system':[{'type':'text','text':'rules','cache_control':{'type':'ephemeral','ttl':'1h'}}],
                 'tools':[{'name':'f','input_schema':{'type':'object','properties':{}},'cache_control':{'type':'ephemeral'}}],
                 'messages':[{'role':'user','content':[
                   {'type':'image','source':{'type':'base64','media_type':'image/png','data':'AAAA'},'cache_control':{'type':'ephemeral'}},
                   {'type':'text','text':'doc','cache_control':{'type':'ephemeral'}}]},
                  {'role':'assistant','content':[{'type':'tool_use','id':'t1','name':'f','input':{}}]},
                  {'role':'user','content':[{'type':'tool_result','tool_use_id':'t1','content':'ok','cache_control':{'type':'ephemeral'}}]}]}""");

        ChatRequest request = AnthropicMessages.decodeRequest(sent);

        assertThat(request.messages().get(0).parts()).containsExactly(new Text("rules", HOUR));
        assertThat(request.messages().get(1).parts()).containsExactly(
                Image.inline("image/png", "AAAA", null).withCache(CacheControl.EPHEMERAL), new Text("doc", CacheControl.EPHEMERAL));
        assertThat(request.messages().get(3).parts()).containsExactly(
                new ToolResult("t1", List.of(new Text("ok")), false, CacheControl.EPHEMERAL));
        assertThat(request.tools().get(0).cache()).isEqualTo(CacheControl.EPHEMERAL);

        ObjectNode again = AnthropicMessages.encodeRequest(request, OPTIONS).body();
        assertThat(again.get("system")).isEqualTo(sent.get("system"));
        assertThat(again.get("tools")).isEqualTo(sent.get("tools"));
        assertThat(again.get("messages")).isEqualTo(sent.get("messages"));
    }

    @Test
    void aMalformedBreakpointInAMessagesRequestIsRefusedByItsPath() {
        assertThatThrownBy(() -> AnthropicMessages.decodeRequest(json("{'model':'c','max_tokens':1,'messages':[{'role':'user',"
                + "'content':[{'type':'text','text':'a','cache_control':{'type':'ephemeral','ttl':'10m'}}]}]}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("messages[0].content[0].cache_control.ttl: \"10m\" (expected: 5m or 1h)");
        assertThatThrownBy(() -> AnthropicMessages.decodeRequest(json("{'model':'c','max_tokens':1,"
                + "'system':[{'type':'text','text':'s','cache_control':'yes'}],'messages':[]}")))
                .hasMessage("system[0].cache_control: \"yes\" (expected: an object)");
    }
}
