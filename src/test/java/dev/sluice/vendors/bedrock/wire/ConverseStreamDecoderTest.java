package dev.sluice.vendors.bedrock.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ConverseStream events read into internal stream events. */
class ConverseStreamDecoderTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static List<StreamEvent> feed(ConverseStreamDecoder decoder, String... typeAndPayload) throws Exception {
        List<StreamEvent> events = new ArrayList<>();
        for (int i = 0; i < typeAndPayload.length; i += 2) {
            events.addAll(decoder.decode(typeAndPayload[i], false, MAPPER.readTree(typeAndPayload[i + 1].replace('\'', '"'))));
        }
        return events;
    }

    @Test
    void textReasoningAndUsageArriveInOrder() throws Exception {
        List<StreamEvent> events = feed(new ConverseStreamDecoder("id", "m", null),
                "messageStart", "{'role':'assistant'}",
                "contentBlockDelta", "{'contentBlockIndex':0,'delta':{'reasoningContent':{'text':'hmm'}}}",
                "contentBlockDelta", "{'contentBlockIndex':0,'delta':{'reasoningContent':{'signature':'sig'}}}",
                "contentBlockStop", "{'contentBlockIndex':0}",
                "contentBlockDelta", "{'contentBlockIndex':1,'delta':{'text':'Hel'}}",
                "contentBlockDelta", "{'contentBlockIndex':1,'delta':{'text':'lo'}}",
                "messageStop", "{'stopReason':'end_turn'}",
                "metadata", "{'usage':{'inputTokens':3,'outputTokens':2,'totalTokens':5,'cacheReadInputTokens':1},"
                        + "'metrics':{'latencyMs':10}}");

        assertThat(events).containsExactly(new StreamEvent.Started("id", "m"),
                new StreamEvent.ReasoningDelta("hmm", null, false), new StreamEvent.ReasoningDelta("", "sig", false),
                new StreamEvent.TextDelta("Hel"), new StreamEvent.TextDelta("lo"),
                new StreamEvent.Finished(FinishReason.STOP), new StreamEvent.UsageReported(new Usage(4, 2, 1, 0, 0)));
    }

    @Test
    void parallelToolCallsGetTheirOwnIndexesAndInputPieces() throws Exception {
        List<StreamEvent> events = feed(new ConverseStreamDecoder("id", "m", null),
                "messageStart", "{'role':'assistant'}",
                "contentBlockDelta", "{'contentBlockIndex':0,'delta':{'text':'ok'}}",
                "contentBlockStart", "{'contentBlockIndex':1,'start':{'toolUse':{'toolUseId':'a','name':'w'}}}",
                "contentBlockDelta", "{'contentBlockIndex':1,'delta':{'toolUse':{'input':'{\\'c\\':'}}}",
                "contentBlockDelta", "{'contentBlockIndex':1,'delta':{'toolUse':{'input':'1}'}}}",
                "contentBlockStart", "{'contentBlockIndex':2,'start':{'toolUse':{'toolUseId':'b','name':'t'}}}",
                "contentBlockDelta", "{'contentBlockIndex':2,'delta':{'toolUse':{'input':'{}'}}}",
                "messageStop", "{'stopReason':'tool_use'}");

        assertThat(events).containsExactly(new StreamEvent.Started("id", "m"), new StreamEvent.TextDelta("ok"),
                new StreamEvent.ToolCallDelta(0, "a", "w", ""), new StreamEvent.ToolCallDelta(0, null, null, "{\"c\":"),
                new StreamEvent.ToolCallDelta(0, null, null, "1}"), new StreamEvent.ToolCallDelta(1, "b", "t", ""),
                new StreamEvent.ToolCallDelta(1, null, null, "{}"), new StreamEvent.Finished(FinishReason.TOOL_CALLS));
    }

    @Test
    void theResponseFormatToolStreamsAsText() throws Exception {
        List<StreamEvent> events = feed(new ConverseStreamDecoder("id", "m", "json_tool_call"),
                "contentBlockStart", "{'contentBlockIndex':0,'start':{'toolUse':{'toolUseId':'a','name':'json_tool_call'}}}",
                "contentBlockDelta", "{'contentBlockIndex':0,'delta':{'toolUse':{'input':'{\\'x\\':1}'}}}",
                "messageStop", "{'stopReason':'tool_use'}");

        assertThat(events).containsExactly(new StreamEvent.Started("id", "m"), new StreamEvent.TextDelta("{\"x\":1}"),
                new StreamEvent.Finished(FinishReason.STOP));
    }

    @Test
    void aGuardrailStopIsAContentFilter() throws Exception {
        List<StreamEvent> events = feed(new ConverseStreamDecoder("id", "m", null), "messageStop", "{'stopReason':'guardrail_intervened'}");
        assertThat(events).contains(new StreamEvent.Finished(FinishReason.CONTENT_FILTER));
    }

    @Test
    void anExceptionEventIsThrownWithItsName() throws Exception {
        ConverseStreamDecoder decoder = new ConverseStreamDecoder("id", "m", null);
        assertThatThrownBy(() -> decoder.decode("throttlingException", true, MAPPER.readTree("{\"message\":\"slow down\"}")))
                .isInstanceOfSatisfying(ConverseStreamError.class, e -> {
                    assertThat(e.exceptionName()).isEqualTo("ThrottlingException");
                    assertThat(e.getMessage()).isEqualTo("slow down");
                });
    }

    @Test
    void errorNamesReadTheSameFromHeaderAndFrame() {
        assertThat(BedrockErrors.exceptionName("ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"))
                .isEqualTo("ThrottlingException");
        assertThat(BedrockErrors.exceptionName("modelStreamErrorException")).isEqualTo("ModelStreamErrorException");
        assertThat(BedrockErrors.exceptionName("com.amazon.coral.service#ExpiredTokenException")).isEqualTo("ExpiredTokenException");
    }
}
