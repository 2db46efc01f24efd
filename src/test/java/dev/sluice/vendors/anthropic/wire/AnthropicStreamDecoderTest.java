package dev.sluice.vendors.anthropic.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.Usage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Messages API stream, event by event, as the internal model's stream events. */
class AnthropicStreamDecoderTest {

    private static List<StreamEvent> feed(AnthropicStreamDecoder decoder, String name, String data) {
        return decoder.decode(name, data.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aWholeStreamWithThinkingTextAndParallelToolCalls() {
        AnthropicStreamDecoder d = new AnthropicStreamDecoder(false);

        assertThat(feed(d, "message_start", """
                {'type':'message_start','message':{'id':'msg_1','type':'message','role':'assistant','model':'claude-x','content':[],
                 'stop_reason':null,'usage':{'input_tokens':10,'cache_creation_input_tokens':2,'cache_read_input_tokens':30,'output_tokens':1}}}"""))
                .containsExactly(new Started("msg_1", "claude-x"));
        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':0,'content_block':{'type':'thinking','thinking':''}}")).isEmpty();
        assertThat(feed(d, "ping", "{'type':'ping'}")).isEmpty();
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':0,'delta':{'type':'thinking_delta','thinking':'hmm'}}"))
                .containsExactly(new ReasoningDelta("hmm", null, false));
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':0,'delta':{'type':'signature_delta','signature':'sig=='}}"))
                .containsExactly(new ReasoningDelta("", "sig==", false));
        assertThat(feed(d, "content_block_stop", "{'type':'content_block_stop','index':0}")).isEmpty();
        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':1,'content_block':{'type':'redacted_thinking','data':'enc'}}"))
                .containsExactly(new ReasoningDelta("enc", null, true));
        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':2,'content_block':{'type':'text','text':''}}")).isEmpty();
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':2,'delta':{'type':'text_delta','text':'Hi'}}"))
                .containsExactly(new TextDelta("Hi"));
        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':3,'content_block':{'type':'tool_use','id':'toolu_a','name':'f','input':{}}}"))
                .containsExactly(new ToolCallDelta(0, "toolu_a", "f", ""));
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':3,'delta':{'type':'input_json_delta','partial_json':'{ x'}}"))
                .containsExactly(new ToolCallDelta(0, null, null, "{ x"));
        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':4,'content_block':{'type':'tool_use','id':'toolu_b','name':'g','input':{}}}"))
                .containsExactly(new ToolCallDelta(1, "toolu_b", "g", ""));
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':4,'delta':{'type':'input_json_delta','partial_json':'{}'}}"))
                .containsExactly(new ToolCallDelta(1, null, null, "{}"));
        assertThat(feed(d, "message_delta", "{'type':'message_delta','delta':{'stop_reason':'tool_use','stop_sequence':null},'usage':{'output_tokens':42}}"))
                .containsExactly(new Finished(FinishReason.TOOL_CALLS), new UsageReported(new Usage(42, 42, 30, 2, 0)));
        assertThat(feed(d, "message_stop", "{'type':'message_stop'}")).isEmpty();
    }

    @Test
    void theForcedJsonToolArrivesAsTextOfAStoppedAnswer() {
        AnthropicStreamDecoder d = new AnthropicStreamDecoder(true);
        feed(d, "message_start", "{'type':'message_start','message':{'id':'m','model':'c','usage':{'input_tokens':1}}}");

        assertThat(feed(d, "content_block_start", "{'type':'content_block_start','index':0,'content_block':{'type':'tool_use','id':'t','name':'json_tool_call','input':{}}}"))
                .isEmpty();
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':0,'delta':{'type':'input_json_delta','partial_json':'{}'}}"))
                .containsExactly(new TextDelta("{}"));
        assertThat(feed(d, "message_delta", "{'type':'message_delta','delta':{'stop_reason':'tool_use'},'usage':{'output_tokens':3}}").getFirst())
                .isEqualTo(new Finished(FinishReason.STOP));
    }

    @Test
    void anErrorEventIsThrownWithTheStatusOfTheSameErrorAsAnAnswer() {
        AnthropicStreamDecoder d = new AnthropicStreamDecoder(false);

        assertThatThrownBy(() -> feed(d, "error", "{'type':'error','error':{'type':'overloaded_error','message':'Overloaded'}}"))
                .isInstanceOfSatisfying(AnthropicStreamError.class, e -> {
                    assertThat(e.errorType()).isEqualTo("overloaded_error");
                    assertThat(e.status()).isEqualTo(529);
                    assertThat(new String(e.payload(), StandardCharsets.UTF_8)).contains("Overloaded");
                });
        assertThat(AnthropicErrors.status("rate_limit_error")).isEqualTo(429);
        assertThat(AnthropicErrors.status("api_error")).isEqualTo(500);
        assertThat(AnthropicErrors.status("invalid_request_error")).isEqualTo(400);
    }

    @Test
    void anUnreadableEventIsRefusedAndAServerToolsInputIsNoCallOfTheCallers() {
        AnthropicStreamDecoder d = new AnthropicStreamDecoder(false);

        assertThatThrownBy(() -> feed(d, "message_start", "not json")).isInstanceOf(IllegalArgumentException.class);
        feed(d, "content_block_start", "{'type':'content_block_start','index':0,'content_block':{'type':'server_tool_use','id':'srvtoolu_1','name':'web_search','input':{}}}");
        assertThat(feed(d, "content_block_delta", "{'type':'content_block_delta','index':0,'delta':{'type':'input_json_delta','partial_json':'{'}}"))
                .isEmpty();
    }
}
