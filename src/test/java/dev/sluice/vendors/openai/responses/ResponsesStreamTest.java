package dev.sluice.vendors.openai.responses;

import static dev.sluice.vendors.openai.responses.ResponsesAnswerTest.ANSWER;
import static dev.sluice.vendors.openai.responses.ResponsesAnswerTest.META;
import static dev.sluice.vendors.openai.responses.ResponsesAnswerTest.USAGE;
import static dev.sluice.vendors.openai.responses.ResponsesAnswerTest.plainRequest;
import static dev.sluice.vendors.openai.responses.ResponsesAnswerTest.wire;
import static dev.sluice.vendors.openai.responses.ResponsesRequestDecoderTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.ObjectMappers;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** A stream of {@link StreamEvent}s as Responses API events, and a native upstream's events back. */
class ResponsesStreamTest {
    /** The stream of {@link ResponsesAnswerTest#ANSWER}: signed reasoning, text in two pieces, two tool calls. */
    static final List<StreamEvent> EVENTS = List.of(
            new Started("chatcmpl-1", "upstream-model"),
            new ReasoningDelta("Weather ", null, false),
            new ReasoningDelta("needs a tool.", null, false),
            new ReasoningDelta("", "sig-1", false),
            new TextDelta("Let me "),
            new TextDelta("check."),
            new ToolCallDelta(0, "call_1", "get_weather", ""),
            new ToolCallDelta(0, null, null, "{\"city\":"),
            new ToolCallDelta(0, null, null, "\"Paris\"}"),
            new ToolCallDelta(1, "call_2", "get_time", "{}"),
            new Finished(FinishReason.TOOL_CALLS),
            new UsageReported(USAGE));

    static final List<String> NAMES = List.of(
            "response.created", "response.in_progress",
            "response.output_item.added", "response.reasoning_summary_part.added",
            "response.reasoning_summary_text.delta", "response.reasoning_summary_text.delta",
            "response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
            "response.output_item.added", "response.content_part.added",
            "response.output_text.delta", "response.output_text.delta",
            "response.output_text.done", "response.content_part.done", "response.output_item.done",
            "response.output_item.added", "response.function_call_arguments.delta", "response.function_call_arguments.delta",
            "response.function_call_arguments.done", "response.output_item.done",
            "response.output_item.added", "response.function_call_arguments.delta",
            "response.function_call_arguments.done", "response.output_item.done",
            "response.completed");

    static final Map<String, Predicate<ResponseStreamEvent>> VARIANTS = Map.ofEntries(
            Map.entry("response.created", ResponseStreamEvent::isCreated),
            Map.entry("response.in_progress", ResponseStreamEvent::isInProgress),
            Map.entry("response.output_item.added", ResponseStreamEvent::isOutputItemAdded),
            Map.entry("response.output_item.done", ResponseStreamEvent::isOutputItemDone),
            Map.entry("response.reasoning_summary_part.added", ResponseStreamEvent::isReasoningSummaryPartAdded),
            Map.entry("response.reasoning_summary_part.done", ResponseStreamEvent::isReasoningSummaryPartDone),
            Map.entry("response.reasoning_summary_text.delta", ResponseStreamEvent::isReasoningSummaryTextDelta),
            Map.entry("response.reasoning_summary_text.done", ResponseStreamEvent::isReasoningSummaryTextDone),
            Map.entry("response.content_part.added", ResponseStreamEvent::isContentPartAdded),
            Map.entry("response.content_part.done", ResponseStreamEvent::isContentPartDone),
            Map.entry("response.output_text.delta", ResponseStreamEvent::isOutputTextDelta),
            Map.entry("response.output_text.done", ResponseStreamEvent::isOutputTextDone),
            Map.entry("response.function_call_arguments.delta", ResponseStreamEvent::isFunctionCallArgumentsDelta),
            Map.entry("response.function_call_arguments.done", ResponseStreamEvent::isFunctionCallArgumentsDone),
            Map.entry("response.completed", ResponseStreamEvent::isCompleted),
            Map.entry("response.incomplete", ResponseStreamEvent::isIncomplete),
            Map.entry("response.failed", ResponseStreamEvent::isFailed));

    /** The whole stream, each internal event handed to the encoder in a call of its own. */
    static List<ResponsesStreamEncoder.Event> encodeOneByOne(List<StreamEvent> events) {
        ResponsesStreamEncoder encoder = ResponsesApi.streamEncoder(plainRequest(), META);
        List<ResponsesStreamEncoder.Event> out = new ArrayList<>();
        events.forEach(event -> out.addAll(encoder.encode(List.of(event))));
        out.addAll(encoder.finish());
        return out;
    }

    @Test
    void theEventsComeInOrderWithTheirTypeAndCountingSequenceNumbers() {
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(EVENTS);

        assertThat(out).extracting(ResponsesStreamEncoder.Event::name).containsExactlyElementsOf(NAMES);
        for (int i = 0; i < out.size(); i++) {
            assertThat(out.get(i).data().get("type").textValue()).isEqualTo(out.get(i).name());
            assertThat(out.get(i).data().get("sequence_number").intValue()).as("event %d", i).isEqualTo(i);
        }
    }

    @Test
    void theCompletedEventHoldsTheResponseTheWholeAnswerEncodesTo() {
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(EVENTS);

        JsonNode completed = out.get(out.size() - 1).data().get("response");
        assertThat(wire((com.fasterxml.jackson.databind.node.ObjectNode) completed))
                .isEqualTo(wire(ResponsesApi.encodeResponse(ANSWER, plainRequest(), META)));
    }

    @Test
    void everyEventNamesItsItemByTheIndexAndIdTheFinalOutputGivesIt() {
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(EVENTS);
        JsonNode output = out.get(out.size() - 1).data().get("response").get("output");

        for (ResponsesStreamEncoder.Event event : out) {
            JsonNode data = event.data();
            if (data.has("item_id")) {
                assertThat(data.get("item_id")).as(event.name()).isEqualTo(output.get(data.get("output_index").intValue()).get("id"));
            }
            if (data.has("item")) {
                assertThat(data.get("item").get("id")).as(event.name()).isEqualTo(output.get(data.get("output_index").intValue()).get("id"));
            }
        }
        assertThat(out.get(11).data()).isEqualTo(json("""
                {"type": "response.output_text.delta", "sequence_number": 11, "output_index": 1, "item_id": "msg_abc_1",
                 "content_index": 0, "delta": "Let me ", "logprobs": []}"""));
        assertThat(out.get(19).data()).isEqualTo(json("""
                {"type": "response.function_call_arguments.done", "sequence_number": 19, "output_index": 2, "item_id": "fc_abc_2",
                 "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}"""));
        assertThat(out.get(16).data().get("item")).isEqualTo(json("""
                {"id": "fc_abc_2", "type": "function_call", "status": "in_progress", "arguments": "", "call_id": "call_1",
                 "name": "get_weather"}"""));
    }

    @Test
    void openAisSdkReadsEveryEventAsItsVariant() throws Exception {
        for (ResponsesStreamEncoder.Event event : encodeOneByOne(EVENTS)) {
            ResponseStreamEvent parsed = ObjectMappers.jsonMapper().readValue(event.data().toString(), ResponseStreamEvent.class).validate();

            assertThat(VARIANTS.get(event.name()).test(parsed)).as(event.name()).isTrue();
        }
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(EVENTS);
        ResponseStreamEvent created = ObjectMappers.jsonMapper().readValue(out.get(0).data().toString(), ResponseStreamEvent.class);
        assertThat(created.asCreated().response().status()).hasValue(ResponseStatus.IN_PROGRESS);
        assertThat(created.asCreated().response().output()).isEmpty();
        ResponseStreamEvent delta = ObjectMappers.jsonMapper().readValue(out.get(12).data().toString(), ResponseStreamEvent.class);
        assertThat(delta.asOutputTextDelta().delta()).isEqualTo("check.");
        assertThat(delta.asOutputTextDelta().outputIndex()).isEqualTo(1);
        ResponseStreamEvent completed = ObjectMappers.jsonMapper().readValue(out.get(25).data().toString(), ResponseStreamEvent.class);
        assertThat(completed.asCompleted().response().output()).hasSize(4);
        assertThat(completed.asCompleted().response().usage().orElseThrow().totalTokens()).isEqualTo(140);
        assertThat(completed.asCompleted().sequenceNumber()).isEqualTo(25);
    }

    @Test
    void decodingTheEncodedStreamGivesBackItsEvents() {
        ResponsesStreamDecoder decoder = ResponsesApi.streamDecoder();
        List<StreamEvent> decoded = new ArrayList<>();
        for (ResponsesStreamEncoder.Event event : encodeOneByOne(EVENTS)) {
            decoded.addAll(decoder.decode(event.name(), event.data()));
        }

        assertThat(decoded).containsExactly(
                new Started("resp_abc", "gpt-4.1-2025-04-14"),
                new ReasoningDelta("Weather ", null, false),
                new ReasoningDelta("needs a tool.", null, false),
                new ReasoningDelta("", "sig-1", false),
                new TextDelta("Let me "),
                new TextDelta("check."),
                new ToolCallDelta(0, "call_1", "get_weather", ""),
                new ToolCallDelta(0, null, null, "{\"city\":"),
                new ToolCallDelta(0, null, null, "\"Paris\"}"),
                new ToolCallDelta(1, "call_2", "get_time", ""),
                new ToolCallDelta(1, null, null, "{}"),
                new Finished(FinishReason.TOOL_CALLS),
                new UsageReported(USAGE));
    }

    @Test
    void aRedactedBlockIsAReasoningItemAddedAndDoneAtOnce() throws Exception {
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(List.of(new Started("x", "m"),
                new ReasoningDelta("opaque", null, true), new ReasoningDelta("Plain.", null, false), new TextDelta("Hi"),
                new Finished(FinishReason.STOP)));

        assertThat(out).extracting(ResponsesStreamEncoder.Event::name).containsExactly(
                "response.created", "response.in_progress",
                "response.output_item.added", "response.output_item.done",
                "response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta",
                "response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done",
                "response.output_item.added", "response.content_part.added", "response.output_text.delta",
                "response.output_text.done", "response.content_part.done", "response.output_item.done",
                "response.completed");
        assertThat(out.get(3).data().get("item")).isEqualTo(json("""
                {"id": "rs_abc_0", "type": "reasoning", "summary": [], "encrypted_content": "opaque"}"""));
        ResponsesStreamDecoder decoder = ResponsesApi.streamDecoder();
        List<StreamEvent> decoded = new ArrayList<>();
        for (ResponsesStreamEncoder.Event event : out) {
            ObjectMappers.jsonMapper().readValue(event.data().toString(), ResponseStreamEvent.class).validate();
            decoded.addAll(decoder.decode(event.name(), event.data()));
        }
        assertThat(decoded).containsExactly(new Started("resp_abc", "gpt-4.1-2025-04-14"), new ReasoningDelta("opaque", null, true),
                new ReasoningDelta("Plain.", null, false), new TextDelta("Hi"), new Finished(FinishReason.STOP),
                new UsageReported(Usage.NONE));
    }

    @Test
    void aStreamCutAtTheTokenLimitEndsIncomplete() throws Exception {
        List<ResponsesStreamEncoder.Event> out = encodeOneByOne(List.of(new Started("x", "m"), new TextDelta("Part"),
                new Finished(FinishReason.LENGTH)));

        ResponsesStreamEncoder.Event last = out.get(out.size() - 1);
        assertThat(last.name()).isEqualTo("response.incomplete");
        ResponseStreamEvent parsed = ObjectMappers.jsonMapper().readValue(last.data().toString(), ResponseStreamEvent.class).validate();
        assertThat(parsed.isIncomplete()).isTrue();
        assertThat(parsed.asIncomplete().response().status()).hasValue(ResponseStatus.INCOMPLETE);
        assertThat(parsed.asIncomplete().response().incompleteDetails().orElseThrow().reason().orElseThrow().asString())
                .isEqualTo("max_output_tokens");
        assertThat(ResponsesApi.streamDecoder().decode(last.name(), last.data())).containsExactly(
                new Finished(FinishReason.LENGTH), new UsageReported(Usage.NONE));
    }

    @Test
    void aFailedStreamEndsWithTheErrorAndTheItemsFinishedSoFar() throws Exception {
        ResponsesStreamEncoder encoder = ResponsesApi.streamEncoder(plainRequest(), META);
        List<ResponsesStreamEncoder.Event> out = new ArrayList<>(encoder.encode(List.of(new Started("x", "m"), new TextDelta("Hi"),
                new ToolCallDelta(0, "call_1", "f", "{"))));

        ResponsesStreamEncoder.Event failed = encoder.failed("server_error", "The upstream went away.");

        assertThat(failed.name()).isEqualTo("response.failed");
        assertThat(failed.data().get("sequence_number").intValue()).isEqualTo(out.size());
        ResponseStreamEvent parsed = ObjectMappers.jsonMapper().readValue(failed.data().toString(), ResponseStreamEvent.class).validate();
        assertThat(parsed.isFailed()).isTrue();
        assertThat(parsed.asFailed().response().status()).hasValue(ResponseStatus.FAILED);
        assertThat(parsed.asFailed().response().error().orElseThrow().message()).isEqualTo("The upstream went away.");
        assertThat(parsed.asFailed().response().output()).hasSize(1);
        assertThatThrownBy(() -> ResponsesApi.streamDecoder().decode(failed.name(), failed.data()))
                .isInstanceOf(IllegalStateException.class).hasMessage("The upstream went away.");
    }

    @Test
    void anErrorEventFromAnUpstreamIsAnErrorWithItsMessage() {
        assertThatThrownBy(() -> ResponsesApi.streamDecoder().decode("error", json("""
                {"type": "error", "code": "rate_limit_exceeded", "message": "Slow down.", "param": null, "sequence_number": 3}""")))
                .isInstanceOf(IllegalStateException.class).hasMessage("Slow down.");
    }

    @Test
    void aFragmentOfAToolCallWhoseItemClosedIsRefused() {
        ResponsesStreamEncoder encoder = ResponsesApi.streamEncoder(plainRequest(), META);
        encoder.encode(List.of(new Started("x", "m"), new ToolCallDelta(0, "call_1", "f", "{"), new ToolCallDelta(1, "call_2", "g", "{")));

        assertThatThrownBy(() -> encoder.encode(List.of(new ToolCallDelta(0, null, null, "}"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("events[0]: ToolCallDelta of call 0 (expected: no fragment of a call after another item began)");
    }

    @Test
    void aToolCallsFirstFragmentMustNameIt() {
        ResponsesStreamEncoder encoder = ResponsesApi.streamEncoder(plainRequest(), META);

        assertThatThrownBy(() -> encoder.encode(List.of(new Started("x", "m"), new ToolCallDelta(0, null, null, "{"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("events[1]: ToolCallDelta of call 0 (expected: an id and a name on a call's first fragment)");
    }

    @Test
    void aStreamStartsOnceAndFirst() {
        ResponsesStreamEncoder encoder = ResponsesApi.streamEncoder(plainRequest(), META);

        assertThatThrownBy(() -> encoder.encode(List.of(new TextDelta("Hi"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("events[0]: TextDelta (expected: Started first)");
        encoder.encode(List.of(new Started("x", "m")));
        assertThatThrownBy(() -> encoder.encode(List.of(new TextDelta("Hi"), new Started("x", "m"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("events[1]: Started (expected: one Started per stream)");
    }

    @Test
    void anArgumentsDeltaForNoKnownCallIsRefusedByItsField() {
        assertThatThrownBy(() -> ResponsesApi.streamDecoder().decode("response.function_call_arguments.delta", json("""
                {"type": "response.function_call_arguments.delta", "output_index": 4, "item_id": "fc_1", "delta": "{"}""")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("output_index: 4 (expected: the output index of a function_call item added earlier)");
    }
}
