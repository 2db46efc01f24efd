package dev.sluice.vendors.anthropic.wire;

import static dev.sluice.vendors.anthropic.wire.AnthropicRequestEncodingTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Dialect;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Role;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.ToolChoice;
import dev.sluice.model.Usage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Anthropic's requests read into the internal model, and answers and stream events written in Anthropic's form. */
class AnthropicEntryDirectionTest {

    private static final String REQUEST = """
            {'model':'claude-x','max_tokens':100,'temperature':0.3,'top_p':0.8,'stop_sequences':['END'],'stream':true,
             'system':[{'type':'text','text':'be brief'}],
             'metadata':{'user_id':'u'},'thinking':{'type':'enabled','budget_tokens':1024},'top_k':4,
             'tools':[{'name':'f','description':'d','input_schema':{'type':'object','properties':{}}}],
             'tool_choice':{'type':'any'},
             'messages':[{'role':'user','content':[{'type':'text','text':'hi'},
                            {'type':'image','source':{'type':'base64','media_type':'image/png','data':'iVBOR'}}]},
                         {'role':'assistant','content':[{'type':'thinking','thinking':'hmm','signature':'sig'},
                            {'type':'tool_use','id':'toolu_1','name':'f','input':{'a':1}}]},
                         {'role':'user','content':[{'type':'tool_result','tool_use_id':'toolu_1','content':'done','is_error':true}]}]}""";

    @Test
    void aRequestReadsIntoTheModelAndWritesBackTheSame() {
        ChatRequest request = AnthropicMessages.decodeRequest(json(REQUEST));

        assertThat(request.model()).isEqualTo("claude-x");
        assertThat(request.messages().getFirst().role()).isEqualTo(Role.SYSTEM);
        assertThat(request.messages().get(2).parts()).containsExactly(new Reasoning("hmm", "sig", false),
                new ToolCall("toolu_1", "f", "{\"a\":1}"));
        assertThat(request.messages().get(3).parts()).containsExactly(new ToolResult("toolu_1", List.of(new Text("done")), true));
        assertThat(request.toolChoice()).isEqualTo(ToolChoice.REQUIRED);
        assertThat(request.sampling().maxTokens()).isEqualTo(100);
        assertThat(request.extra().in(Dialect.ANTHROPIC)).containsOnlyKeys("metadata", "thinking", "top_k");

        ObjectNode written = AnthropicMessages.encodeRequest(request, new AnthropicMessages.Options("claude-x", 4096)).body();
        assertThat(written).isEqualTo(json(REQUEST));
    }

    @Test
    void whatTheModelCannotHoldIsRefusedByPath() {
        assertThatThrownBy(() -> AnthropicMessages.decodeRequest(json("{'model':'c','messages':[]}")))
                .hasMessageContaining("max_tokens");
        assertThatThrownBy(() -> AnthropicMessages.decodeRequest(json(
                "{'model':'c','max_tokens':1,'messages':[{'role':'user','content':[{'type':'document','source':{}}]}]}")))
                .hasMessageStartingWith("messages[0].content[0].type");
        assertThatThrownBy(() -> AnthropicMessages.decodeRequest(json(
                "{'model':'c','max_tokens':1,'messages':[],'tools':[{'type':'web_search_20250305','name':'web_search'}]}")))
                .hasMessageStartingWith("tools[0].type");
    }

    @Test
    void anAnswerWritesAsAnthropicsAndReadsBackEqual() {
        ChatAnswer answer = new ChatAnswer("msg_1", "claude-x", List.of(new Reasoning("hmm", "sig", false), new Text("Hi"),
                new ToolCall("toolu_1", "f", "{\"a\":1}")), FinishReason.TOOL_CALLS, new Usage(35, 7, 20, 5, 0));

        ObjectNode written = AnthropicMessages.encodeAnswer(answer);

        assertThat(written.get("stop_reason").asText()).isEqualTo("tool_use");
        assertThat(written.get("usage").toString()).isEqualTo(json(
                "{'input_tokens':10,'cache_creation_input_tokens':5,'cache_read_input_tokens':20,'output_tokens':7}").toString());
        assertThat(AnthropicMessages.decodeAnswer(written, false)).isEqualTo(answer);
    }

    @Test
    void streamEventsWriteAsAnthropicsAndReadBackTheSame() {
        List<StreamEvent> events = List.of(new Started("msg_1", "claude-x"), new ReasoningDelta("hmm", null, false),
                new ReasoningDelta("", "sig", false), new TextDelta("Hel"), new TextDelta("lo"),
                new ToolCallDelta(0, "toolu_1", "f", ""), new ToolCallDelta(0, null, null, "{\"a\":"), new ToolCallDelta(0, null, null, "1}"),
                new ToolCallDelta(1, "toolu_2", "g", ""), new ToolCallDelta(1, null, null, "{}"), new Finished(FinishReason.TOOL_CALLS), new UsageReported(new Usage(9, 4, 0, 0, 0)));
        AnthropicStreamEncoder encoder = AnthropicMessages.streamEncoder();
        List<AnthropicStreamEncoder.Event> written = new ArrayList<>(encoder.encode(events));
        written.addAll(encoder.finish());

        assertThat(written).extracting(AnthropicStreamEncoder.Event::name).containsExactly("message_start",
                "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
                "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
                "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop",
                "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
        AnthropicStreamDecoder decoder = AnthropicMessages.streamDecoder(false);
        List<StreamEvent> read = new ArrayList<>();
        for (AnthropicStreamEncoder.Event event : written) {
            read.addAll(decoder.decode(event.name(), event.data().toString().getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(read).containsExactlyElementsOf(events);
    }

    @Test
    void interleavedToolCallFragmentsAreRefused() {
        AnthropicStreamEncoder encoder = AnthropicMessages.streamEncoder();
        encoder.encode(List.of(new Started("m", "c"), new ToolCallDelta(0, "a", "f", ""), new ToolCallDelta(1, "b", "g", "")));

        assertThatThrownBy(() -> encoder.encode(List.of(new ToolCallDelta(0, null, null, "{}"))))
                .hasMessageContaining("cannot interleave");
    }
}
