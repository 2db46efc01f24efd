package dev.sluice.vendors.anthropic.wire;

import static dev.sluice.vendors.anthropic.wire.AnthropicRequestEncodingTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import org.junit.jupiter.api.Test;

/** Messages API answers read into the internal model, and from there written as OpenAI's. */
class AnthropicAnswerDecodingTest {

    private static ChatAnswer decode(String content, String stopReason, boolean jsonMode) {
        return AnthropicMessages.decodeAnswer(json("""
                {'id':'msg_1','type':'message','role':'assistant','model':'claude-x','content':%s,'stop_reason':%s,'stop_sequence':null,
                 'usage':{'input_tokens':10,'cache_creation_input_tokens':5,'cache_read_input_tokens':20,'output_tokens':7}}"""
                .formatted(content, stopReason == null ? "null" : "'" + stopReason + "'")), jsonMode);
    }

    @Test
    void textIsTheAnswersContent() {
        ChatAnswer answer = decode("[{'type':'text','text':'Hello'},{'type':'text','text':' there'}]", "end_turn", false);

        assertThat(answer.id()).isEqualTo("msg_1");
        assertThat(answer.model()).isEqualTo("claude-x");
        assertThat(answer.content()).containsExactly(new Text("Hello"), new Text(" there"));
        assertThat(OpenAiChat.encodeAnswer(answer, 1).at("/choices/0/message/content").asText()).isEqualTo("Hello there");
    }

    @Test
    void parallelToolUsesAreToolCallsWithArgumentsAsJsonText() {
        ChatAnswer answer = decode("""
                [{'type':'text','text':'Checking.'},{'type':'tool_use','id':'toolu_1','name':'weather','input':{'city':'Paris'}},
                 {'type':'tool_use','id':'toolu_2','name':'time','input':{}}]""", "tool_use", false);

        assertThat(answer.content()).containsExactly(new Text("Checking."), new ToolCall("toolu_1", "weather", "{\"city\":\"Paris\"}"),
                new ToolCall("toolu_2", "time", "{}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        ObjectNode openAi = OpenAiChat.encodeAnswer(answer, 1);
        assertThat(openAi.at("/choices/0/message/tool_calls")).isEqualTo(json("""
                [{'id':'toolu_1','type':'function','function':{'name':'weather','arguments':'{\\'city\\':\\'Paris\\'}'}},
                 {'id':'toolu_2','type':'function','function':{'name':'time','arguments':'{}'}}]""".replace("\\'", "\\\"")));
        assertThat(openAi.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
    }

    @Test
    void stopReasonsAreOpenAisFinishReasons() {
        assertThat(decode("[]", "end_turn", false).finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(decode("[]", "stop_sequence", false).finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(decode("[]", "max_tokens", false).finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(decode("[]", "tool_use", false).finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(decode("[]", "refusal", false).finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(decode("[]", "something_new", false).finishReason()).isEqualTo(FinishReason.other("something_new"));
    }

    @Test
    void usageCountsCacheReadsAndWritesInThePrompt() {
        Usage usage = decode("[]", "end_turn", false).usage();

        assertThat(usage).isEqualTo(new Usage(35, 7, 20, 5, 0));
        ObjectNode openAi = OpenAiChat.encodeAnswer(decode("[]", "end_turn", false), 1);
        assertThat(openAi.get("usage").toString()).isEqualTo(json("""
                {'prompt_tokens':35,'completion_tokens':7,'total_tokens':42,'prompt_tokens_details':{'cached_tokens':20},
                 'completion_tokens_details':{'reasoning_tokens':0},'cache_creation_input_tokens':5}""").toString());
    }

    @Test
    void signedThinkingIsReasoningContentWithThinkingBlocks() {
        ChatAnswer answer = decode("""
                [{'type':'thinking','thinking':'Let me think.','signature':'sig=='},{'type':'redacted_thinking','data':'enc'},
                 {'type':'text','text':'42'}]""", "end_turn", false);

        assertThat(answer.content()).containsExactly(new Reasoning("Let me think.", "sig==", false), new Reasoning("enc", null, true),
                new Text("42"));
        ObjectNode message = (ObjectNode) OpenAiChat.encodeAnswer(answer, 1).at("/choices/0/message");
        assertThat(message.get("reasoning_content").asText()).isEqualTo("Let me think.");
        assertThat(message.get("thinking_blocks")).isEqualTo(json("""
                [{'type':'thinking','thinking':'Let me think.','signature':'sig=='},{'type':'redacted_thinking','data':'enc'}]"""));
    }

    @Test
    void theOfferedJsonToolCalledAfterThinkingIsStillTheAnswersText() {
        ChatAnswer answer = decode("""
                [{'type':'thinking','thinking':'hm','signature':'sig'},
                 {'type':'tool_use','id':'toolu_1','name':'json_tool_call','input':{'age':30}}]""", "tool_use", true);

        assertThat(answer.content()).containsExactly(new Reasoning("hm", "sig", false), new Text("{\"age\":30}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void theForcedJsonToolsInputIsTheTextOfAStoppedAnswer() {
        ChatAnswer answer = decode("[{'type':'tool_use','id':'toolu_1','name':'json_tool_call','input':{'age':30}}]", "tool_use", true);

        assertThat(answer.content()).containsExactly(new Text("{\"age\":30}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(decode("[{'type':'tool_use','id':'toolu_1','name':'json_tool_call','input':{}}]", "tool_use", false).content())
                .as("without a structured output asked it is an ordinary tool").hasOnlyElementsOfType(ToolCall.class);
    }

    @Test
    void somethingThatIsNotAMessageIsRefused() {
        assertThatThrownBy(() -> AnthropicMessages.decodeAnswer(json("{'type':'error','error':{}}"), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type message");
        assertThatThrownBy(() -> decode("[{'type':'tool_use','name':'f','input':{}}]", "tool_use", false))
                .hasMessageContaining("content[0].id");
    }
}
