package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalCount;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one stream of Responses API events from an upstream that serves the API itself into
 * {@link StreamEvent}s: {@code response.created} starts it; text and refusal deltas are text;
 * reasoning summary and reasoning text deltas are reasoning; a {@code function_call} item's
 * {@code output_item.added} opens a tool call (numbered by the order calls come in) and its
 * argument deltas continue it; a reasoning item's {@code output_item.done} gives the
 * signature or redacted data its {@code encrypted_content} holds (see
 * {@link ResponsesReasoning}); {@code response.completed} or {@code response.incomplete}
 * finishes it with the usage. {@code response.failed} and {@code error} are an
 * {@link IllegalStateException} with the upstream's message. Other events say nothing the
 * internal model holds. One per stream.
 */
public final class ResponsesStreamDecoder {
    private final Map<Integer, Integer> callsByOutputIndex = new HashMap<>();
    private boolean started;

    ResponsesStreamDecoder() {}

    /** The events of one server-sent event: its {@code event:} name (or its data's {@code type}) and its data. */
    public List<StreamEvent> decode(String eventType, JsonNode node) {
        ObjectNode data = object(node, "$");
        String type = eventType == null ? text(data, "type", "") : eventType;
        List<StreamEvent> events = new ArrayList<>();
        switch (type) {
            case "response.created" -> {
                ObjectNode response = object(data.get("response"), "response");
                if (!started) {
                    events.add(new StreamEvent.Started(text(response, "id", "response"), text(response, "model", "response")));
                    started = true;
                }
            }
            case "response.output_text.delta", "response.refusal.delta" -> events.add(new StreamEvent.TextDelta(text(data, "delta", "")));
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                    events.add(new StreamEvent.ReasoningDelta(text(data, "delta", ""), null, false));
            case "response.output_item.added" -> added(data, events);
            case "response.output_item.done" -> done(data, events);
            case "response.function_call_arguments.delta" -> {
                Integer call = callsByOutputIndex.get(outputIndex(data));
                if (call == null) {
                    throw refused("output_index", data.get("output_index"), "the output index of a function_call item added earlier");
                }
                events.add(new StreamEvent.ToolCallDelta(call, null, null, text(data, "delta", "")));
            }
            case "response.completed", "response.incomplete" -> finished(object(data.get("response"), "response"), events);
            case "response.failed" -> throw new IllegalStateException(ResponsesAnswerDecoder.errorMessage(data.path("response").get("error")));
            case "error" -> throw new IllegalStateException(ResponsesAnswerDecoder.errorMessage(data));
            default -> { }
        }
        return events;
    }

    private void added(ObjectNode data, List<StreamEvent> events) {
        ObjectNode item = object(data.get("item"), "item");
        if ("function_call".equals(item.path("type").asText(null))) {
            int call = callsByOutputIndex.size();
            callsByOutputIndex.put(outputIndex(data), call);
            String arguments = absent(item.get("arguments")) ? "" : text(item, "arguments", "item");
            events.add(new StreamEvent.ToolCallDelta(call, text(item, "call_id", "item"), text(item, "name", "item"), arguments));
        }
    }

    /** A reasoning item's signature (beside streamed summary text) or redacted data, once the item is done. */
    private static void done(ObjectNode data, List<StreamEvent> events) {
        ObjectNode item = object(data.get("item"), "item");
        if (!"reasoning".equals(item.path("type").asText(null))) {
            return;
        }
        Reasoning reasoning = ResponsesReasoning.decode(item, "item");
        if (reasoning == null) {
            return;
        }
        if (reasoning.redacted()) {
            events.add(new StreamEvent.ReasoningDelta(reasoning.text(), null, true));
        } else if (reasoning.signature() != null) {
            events.add(new StreamEvent.ReasoningDelta("", reasoning.signature(), false));
        }
    }

    private void finished(ObjectNode response, List<StreamEvent> events) {
        String status = text(response, "status", "response");
        events.add(new StreamEvent.Finished(ResponsesAnswerDecoder.finish(response, status, !callsByOutputIndex.isEmpty())));
        if (!absent(response.get("usage"))) {
            events.add(new StreamEvent.UsageReported(ResponsesAnswerDecoder.usage(response.get("usage"), "response.usage")));
        }
    }

    private static int outputIndex(ObjectNode data) {
        Integer index = optionalCount(data, "output_index", "");
        if (index == null) {
            throw refused("output_index", data.get("output_index"), "a whole number >= 0");
        }
        return index;
    }
}
