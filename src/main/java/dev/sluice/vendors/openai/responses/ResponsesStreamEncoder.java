package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.FinishReason;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.Usage;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes one stream's {@link StreamEvent}s as Responses API events. {@code Started} gives
 * {@code response.created} and {@code response.in_progress}; deltas of one kind fill one output
 * item, and a change of kind (or a new tool call, or reasoning after a signed block) closes it
 * with its {@code .done} events and opens the next. Readable reasoning streams as the item's
 * one summary part; a redacted block is a reasoning item added and done at once. Since usage
 * may come after the stop, {@code response.completed} (or {@code response.incomplete}, for
 * the token limit or the content filter) is written by {@link #finish()}, holding the response
 * object the whole answer would encode to. Every event carries its {@code type} and a
 * {@code sequence_number} counting from 0. Items cannot be reopened, so a fragment of a tool
 * call whose item was closed is refused. One per stream.
 */
public final class ResponsesStreamEncoder {
    /** One event: its SSE {@code event:} name, which is also its {@code type}, and its data. */
    public record Event(String name, ObjectNode data) {}

    private enum Kind { MESSAGE, REASONING, CALL }

    private final ResponsesRequest request;
    private final ResponseMeta meta;
    private final ArrayNode output = NODES.arrayNode();
    private final Set<Integer> calls = new HashSet<>();
    private int sequence;
    private boolean started;
    private Kind open;
    private String openId;
    private int openCall = -1;
    private final StringBuilder openText = new StringBuilder();
    private String callId;
    private String callName;
    private String signature;
    private FinishReason finish;
    private Usage usage = Usage.NONE;

    ResponsesStreamEncoder(ResponsesRequest request, ResponseMeta meta) {
        this.request = request;
        this.meta = meta;
    }

    /** The events for {@code events}, in order. */
    public List<Event> encode(List<StreamEvent> events) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            StreamEvent event = events.get(i);
            if ((event instanceof Started) == started) {
                throw new IllegalArgumentException("events[" + i + "]: " + event.getClass().getSimpleName()
                        + (started ? " (expected: one Started per stream)" : " (expected: Started first)"));
            }
            switch (event) {
                case Started first -> {
                    started = true;
                    out.add(responseEvent("response.created", inProgress()));
                    out.add(responseEvent("response.in_progress", inProgress()));
                }
                case TextDelta text -> text(text, out);
                case ReasoningDelta reasoning when reasoning.redacted() -> redacted(reasoning, out);
                case ReasoningDelta reasoning -> reasoning(reasoning, out);
                case ToolCallDelta call -> toolCall(call, i, out);
                case Finished finished -> {
                    close(out);
                    finish = finished.reason();
                }
                case UsageReported reported -> usage = reported.usage();
            }
        }
        return out;
    }

    /** The closing events once the stream is over: the open item's, then {@code response.completed} or {@code response.incomplete}. */
    public List<Event> finish() {
        List<Event> out = new ArrayList<>();
        close(out);
        ObjectNode response = ResponseObject.of(request, meta, ResponsesOutput.COMPLETED, output.deepCopy());
        FinishReason reason = finish == null ? FinishReason.STOP : finish;
        ResponseObject.finish(response, reason, usage);
        out.add(responseEvent(ResponseObject.incompleteReason(reason) == null ? "response.completed" : "response.incomplete", response));
        return out;
    }

    /** {@code response.failed}: the response so far (its finished items), failed with {@code code} and {@code message}. */
    public Event failed(String code, String message) {
        ObjectNode response = ResponseObject.of(request, meta, ResponsesOutput.IN_PROGRESS, output.deepCopy());
        ResponseObject.fail(response, code, message);
        return responseEvent("response.failed", response);
    }

    private ObjectNode inProgress() {
        return ResponseObject.of(request, meta, ResponsesOutput.IN_PROGRESS, NODES.arrayNode());
    }

    private void text(TextDelta text, List<Event> out) {
        if (open != Kind.MESSAGE) {
            openItem(Kind.MESSAGE, "msg", out);
            out.add(itemEvent("response.output_item.added")
                    .item(ResponsesOutput.message(openId, ResponsesOutput.IN_PROGRESS, NODES.arrayNode())).event());
            out.add(partEvent("response.content_part.added").part("part", ResponsesOutput.outputText("")).event());
        }
        openText.append(text.text());
        out.add(partEvent("response.output_text.delta").text("delta", text.text()).logprobs().event());
    }

    private void reasoning(ReasoningDelta reasoning, List<Event> out) {
        if (open != Kind.REASONING || signature != null) {
            openItem(Kind.REASONING, "rs", out);
            out.add(itemEvent("response.output_item.added").item(emptyReasoning()).event());
            out.add(summaryEvent("response.reasoning_summary_part.added").part("part", ResponsesReasoning.summaryText("")).event());
        }
        if (!reasoning.text().isEmpty()) {
            openText.append(reasoning.text());
            out.add(summaryEvent("response.reasoning_summary_text.delta").text("delta", reasoning.text()).event());
        }
        if (reasoning.signature() != null) {
            signature = reasoning.signature();
        }
    }

    private void redacted(ReasoningDelta reasoning, List<Event> out) {
        close(out);
        String id = meta.itemId("rs", output.size());
        out.add(new Built("response.output_item.added").index(output.size()).item(emptyReasoning(id)).event());
        ObjectNode item = ResponsesReasoning.encode(new Reasoning(reasoning.text(), null, true), id);
        out.add(new Built("response.output_item.done").index(output.size()).item(item).event());
        output.add(item);
    }

    private void toolCall(ToolCallDelta call, int eventIndex, List<Event> out) {
        if (open != Kind.CALL || openCall != call.index()) {
            if (calls.contains(call.index())) {
                throw new IllegalArgumentException("events[" + eventIndex + "]: ToolCallDelta of call " + call.index()
                        + " (expected: no fragment of a call after another item began)");
            }
            if (call.id() == null || call.name() == null) {
                throw new IllegalArgumentException("events[" + eventIndex + "]: ToolCallDelta of call " + call.index()
                        + " (expected: an id and a name on a call's first fragment)");
            }
            openItem(Kind.CALL, "fc", out);
            calls.add(call.index());
            openCall = call.index();
            callId = call.id();
            callName = call.name();
            out.add(itemEvent("response.output_item.added")
                    .item(ResponsesOutput.functionCall(openId, ResponsesOutput.IN_PROGRESS, callId, callName, "")).event());
        }
        if (!call.arguments().isEmpty()) {
            openText.append(call.arguments());
            out.add(itemEvent("response.function_call_arguments.delta").id().text("delta", call.arguments()).event());
        }
    }

    private void openItem(Kind kind, String prefix, List<Event> out) {
        close(out);
        open = kind;
        openId = meta.itemId(prefix, output.size());
        openText.setLength(0);
        signature = null;
    }

    /** The open item's closing events; it then joins the output. */
    private void close(List<Event> out) {
        if (open == null) {
            return;
        }
        String text = openText.toString();
        ObjectNode item = switch (open) {
            case MESSAGE -> {
                out.add(partEvent("response.output_text.done").text("text", text).logprobs().event());
                out.add(partEvent("response.content_part.done").part("part", ResponsesOutput.outputText(text)).event());
                yield ResponsesOutput.message(openId, ResponsesOutput.COMPLETED, NODES.arrayNode().add(ResponsesOutput.outputText(text)));
            }
            case REASONING -> {
                out.add(summaryEvent("response.reasoning_summary_text.done").text("text", text).event());
                out.add(summaryEvent("response.reasoning_summary_part.done").part("part", ResponsesReasoning.summaryText(text)).event());
                yield ResponsesReasoning.encode(new Reasoning(text, signature, false), openId);
            }
            case CALL -> {
                out.add(itemEvent("response.function_call_arguments.done").id().text("name", callName).text("arguments", text).event());
                yield ResponsesOutput.functionCall(openId, ResponsesOutput.COMPLETED, callId, callName, text);
            }
        };
        out.add(itemEvent("response.output_item.done").item(item).event());
        output.add(item);
        open = null;
        openCall = -1;
    }

    private ObjectNode emptyReasoning() {
        return emptyReasoning(openId);
    }

    private static ObjectNode emptyReasoning(String id) {
        ObjectNode item = NODES.objectNode().put("id", id).put("type", "reasoning");
        item.putArray("summary");
        return item;
    }

    private Event responseEvent(String type, ObjectNode response) {
        return new Built(type).part("response", response).event();
    }

    /** An event about the open item: its output index. */
    private Built itemEvent(String type) {
        return new Built(type).index(output.size());
    }

    /** An event about the open message's one content part. */
    private Built partEvent(String type) {
        return itemEvent(type).id().count("content_index", 0);
    }

    /** An event about the open reasoning item's one summary part. */
    private Built summaryEvent(String type) {
        return itemEvent(type).id().count("summary_index", 0);
    }

    /** An event under construction: {@code type} and the next sequence number first, then its fields in order. */
    private final class Built {
        private final String type;
        private final ObjectNode data;

        Built(String type) {
            this.type = type;
            this.data = NODES.objectNode().put("type", type).put("sequence_number", sequence++);
        }

        Built index(int outputIndex) {
            data.put("output_index", outputIndex);
            return this;
        }

        /** The open item's id. */
        Built id() {
            data.put("item_id", openId);
            return this;
        }

        Built count(String field, int value) {
            data.put(field, value);
            return this;
        }

        Built text(String field, String value) {
            data.put(field, value);
            return this;
        }

        Built item(ObjectNode item) {
            return part("item", item.deepCopy());
        }

        Built part(String field, ObjectNode value) {
            data.set(field, value);
            return this;
        }

        /** OpenAI's text events carry the tokens' log probabilities, which no upstream gives here. */
        Built logprobs() {
            data.putArray("logprobs");
            return this;
        }

        Event event() {
            return new Event(type, data);
        }
    }
}
