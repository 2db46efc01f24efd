package dev.sluice.vendors.bedrock.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import org.junit.jupiter.api.Test;

/** Converse answers read into the internal model: content, stop reasons and usage. */
class BedrockConverseAnswerTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ChatAnswer decode(String json, String responseTool) throws Exception {
        return BedrockConverse.decodeAnswer(MAPPER.readTree(json.replace('\'', '"')), "id-1", "claude", responseTool);
    }

    private static String answer(String content, String stopReason) {
        return "{'output':{'message':{'role':'assistant','content':" + content + "}},'stopReason':'" + stopReason + "',"
                + "'usage':{'inputTokens':10,'outputTokens':5,'totalTokens':15}}";
    }

    @Test
    void everyStopReasonMapsToOpenAisFinishReason() throws Exception {
        String text = "[{'text':'hi'}]";
        assertThat(decode(answer(text, "end_turn"), null).finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(decode(answer(text, "stop_sequence"), null).finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(decode(answer(text, "max_tokens"), null).finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(decode(answer(text, "tool_use"), null).finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(decode(answer(text, "guardrail_intervened"), null).finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(decode(answer(text, "content_filtered"), null).finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(decode(answer(text, "something_new"), null).finishReason()).isEqualTo(FinishReason.other("something_new"));
    }

    @Test
    void promptTokensIncludeCacheReadsAndWritesAndCachedTokensAreTheReads() throws Exception {
        ChatAnswer answer = decode("{'output':{'message':{'role':'assistant','content':[{'text':'hi'}]}},'stopReason':'end_turn',"
                + "'usage':{'inputTokens':10,'outputTokens':5,'totalTokens':115,'cacheReadInputTokens':60,"
                + "'cacheWriteInputTokens':40}}", null);

        assertThat(answer.usage()).isEqualTo(new Usage(110, 5, 60, 40, 0));
        assertThat(answer.usage().totalTokens()).isEqualTo(115);
    }

    @Test
    void toolUsesBecomeToolCallsWithTheirInputAsArgumentsText() throws Exception {
        ChatAnswer answer = decode(answer("[{'text':'calling'},{'toolUse':{'toolUseId':'tu1','name':'w','input':{'city':'Oslo'}}},"
                + "{'toolUse':{'toolUseId':'tu2','name':'w','input':{}}}]", "tool_use"), null);

        assertThat(answer.content()).containsExactly(new ContentPart.Text("calling"),
                new ContentPart.ToolCall("tu1", "w", "{\"city\":\"Oslo\"}"), new ContentPart.ToolCall("tu2", "w", "{}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void theResponseFormatToolIsUnwrappedIntoTheAnswersText() throws Exception {
        ChatAnswer answer = decode(answer("[{'toolUse':{'toolUseId':'tu1','name':'person','input':{'name':'Ada'}}}]",
                "tool_use"), "person");

        assertThat(answer.content()).containsExactly(new ContentPart.Text("{\"name\":\"Ada\"}"));
        assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
    }

    @Test
    void reasoningContentKeepsItsSignatureAndRedactedDataStaysOpaque() throws Exception {
        ChatAnswer answer = decode(answer("[{'reasoningContent':{'reasoningText':{'text':'think','signature':'s1'}}},"
                + "{'reasoningContent':{'redactedContent':'b3BhcXVl'}},{'text':'done'}]", "end_turn"), null);

        assertThat(answer.content()).containsExactly(new ContentPart.Reasoning("think", "s1", false),
                new ContentPart.Reasoning("b3BhcXVl", null, true), new ContentPart.Text("done"));
    }

    @Test
    void anAnswerWithoutUsageCountsNothing() throws Exception {
        JsonNode body = MAPPER.readTree("{\"output\":{\"message\":{\"content\":[{\"text\":\"x\"}]}},\"stopReason\":\"end_turn\"}");
        assertThat(BedrockConverse.decodeAnswer(body, "i", "m", null).usage()).isEqualTo(Usage.NONE);
    }
}
