package dev.sluice.vendors.openai.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prompt-cache breakpoints in OpenAI bodies as LiteLLM's callers write them
 * ({@code cache_control} on a content part, a message, a tool), read into the internal model
 * and written back.
 */
class OpenAiCacheControlTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final CacheControl HOUR = new CacheControl("1h");

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    private static ChatRequest decode(String body) throws Exception {
        return OpenAiChat.decodeRequest(json(body));
    }

    private static List<ContentPart> parts(String body, int message) throws Exception {
        return decode(body).messages().get(message).parts();
    }

    @Test
    void aTextPartsBreakpointIsReadWithItsTtl() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'text','text':'long context','cache_control':{'type':'ephemeral','ttl':'1h'}},"
                + "{'type':'text','text':'question'}]}]}", 0);

        assertThat(parts).containsExactly(new Text("long context", HOUR), new Text("question"));
    }

    @Test
    void anImagePartsBreakpointIsRead() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'image_url','image_url':{'url':'https://example.com/a.png'},'cache_control':{'type':'ephemeral'}}]}]}", 0);

        assertThat(parts).containsExactly(Image.atUrl("https://example.com/a.png", null).withCache(CacheControl.EPHEMERAL));
    }

    @Test
    void aMessagesBreakpointMarksItsStringContentAsOneTextPart() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'system','content':'be brief',"
                + "'cache_control':{'type':'ephemeral'}},{'role':'user','content':'hi'}]}", 0);

        assertThat(parts).containsExactly(new Text("be brief", CacheControl.EPHEMERAL));
    }

    @Test
    void aMessagesBreakpointMarksItsLastPartOnlyAndAPartsOwnIsKept() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'user','cache_control':{'type':'ephemeral'},'content':["
                + "{'type':'text','text':'a'},{'type':'text','text':'b'}]}]}", 0);
        List<ContentPart> own = parts("{'model':'m','messages':[{'role':'user','cache_control':{'type':'ephemeral'},'content':["
                + "{'type':'text','text':'a'},{'type':'text','text':'b','cache_control':{'type':'ephemeral','ttl':'1h'}}]}]}", 0);

        assertThat(parts).containsExactly(new Text("a"), new Text("b", CacheControl.EPHEMERAL));
        assertThat(own).containsExactly(new Text("a"), new Text("b", HOUR));
    }

    @Test
    void anAssistantMessagesBreakpointMarksItsTextNotItsToolCall() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'user','content':'hi'},"
                + "{'role':'assistant','content':'looking','cache_control':{'type':'ephemeral'},'tool_calls':["
                + "{'id':'c1','type':'function','function':{'name':'f','arguments':'{}'}}]}]}", 1);

        assertThat(parts).containsExactly(new Text("looking", CacheControl.EPHEMERAL), new ToolCall("c1", "f", "{}"));
    }

    @Test
    void aToolMessagesBreakpointMarksTheToolResultAndItsPartsKeepTheirOwn() throws Exception {
        List<ContentPart> parts = parts("{'model':'m','messages':[{'role':'tool','tool_call_id':'c1','cache_control':{'type':'ephemeral'},"
                + "'content':[{'type':'text','text':'18 C','cache_control':{'type':'ephemeral','ttl':'1h'}}]}]}", 0);

        assertThat(parts).containsExactly(new ToolResult("c1", List.of(new Text("18 C", HOUR)), false, CacheControl.EPHEMERAL));
    }

    @Test
    void aToolsBreakpointIsReadOnTheToolOrInsideItsFunction() throws Exception {
        ChatRequest request = decode("{'model':'m','messages':[{'role':'user','content':'hi'}],'tools':["
                + "{'type':'function','function':{'name':'a'},'cache_control':{'type':'ephemeral','ttl':'1h'}},"
                + "{'type':'function','function':{'name':'b','cache_control':{'type':'ephemeral'}}},"
                + "{'type':'function','function':{'name':'c'}}]}");

        assertThat(request.tools()).extracting(tool -> tool.cache()).containsExactly(HOUR, CacheControl.EPHEMERAL, null);
    }

    @Test
    void aMalformedBreakpointIsRefusedByItsPath() {
        assertThatThrownBy(() -> decode("{'model':'m','messages':[{'role':'user','content':["
                + "{'type':'text','text':'a','cache_control':{'type':'persistent'}}]}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("messages[0].content[0].cache_control.type: \"persistent\" (expected: ephemeral)");
        assertThatThrownBy(() -> decode("{'model':'m','messages':[{'role':'user','content':'a',"
                + "'cache_control':{'type':'ephemeral','ttl':'2h'}}]}"))
                .hasMessage("messages[0].cache_control.ttl: \"2h\" (expected: 5m or 1h)");
        assertThatThrownBy(() -> decode("{'model':'m','messages':[{'role':'user','content':'a'}],"
                + "'tools':[{'type':'function','function':{'name':'f'},'cache_control':true}]}"))
                .hasMessage("tools[0].cache_control: true (expected: an object)");
    }

    @Test
    void breakpointsAreWrittenBackWhereTheyWereRead() throws Exception {
        JsonNode body = OpenAiChat.encodeRequest(decode("{'model':'m','messages':["
                + "{'role':'system','content':'be brief','cache_control':{'type':'ephemeral'}},"
                + "{'role':'user','content':[{'type':'text','text':'doc','cache_control':{'type':'ephemeral','ttl':'1h'}},"
                + "{'type':'image_url','image_url':{'url':'https://example.com/a.png'},'cache_control':{'type':'ephemeral'}}]},"
                + "{'role':'assistant','content':null,'tool_calls':[{'id':'c1','type':'function','function':{'name':'f','arguments':'{}'}}]},"
                + "{'role':'tool','tool_call_id':'c1','content':'sunny','cache_control':{'type':'ephemeral'}}],"
                + "'tools':[{'type':'function','function':{'name':'f'},'cache_control':{'type':'ephemeral'}}]}"));

        assertThat(body.at("/messages/0/content")).as("a marked text cannot be a plain string")
                .isEqualTo(json("[{'type':'text','text':'be brief','cache_control':{'type':'ephemeral'}}]"));
        assertThat(body.at("/messages/1/content/0/cache_control")).isEqualTo(json("{'type':'ephemeral','ttl':'1h'}"));
        assertThat(body.at("/messages/1/content/1/cache_control")).isEqualTo(json("{'type':'ephemeral'}"));
        assertThat(body.at("/messages/3")).isEqualTo(json("{'role':'tool','tool_call_id':'c1','content':'sunny',"
                + "'cache_control':{'type':'ephemeral'}}"));
        assertThat(body.at("/tools/0/cache_control")).isEqualTo(json("{'type':'ephemeral'}"));
    }

    @Test
    void aBodyWithoutBreakpointsIsWrittenAsBefore() throws Exception {
        JsonNode body = OpenAiChat.encodeRequest(decode("{'model':'m','messages':[{'role':'user','content':'hi'}],"
                + "'tools':[{'type':'function','function':{'name':'f'}}]}"));

        assertThat(body.at("/messages/0/content").asText()).isEqualTo("hi");
        assertThat(body.toString()).doesNotContain("cache_control");
    }
}
