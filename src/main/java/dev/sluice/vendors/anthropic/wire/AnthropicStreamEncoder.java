package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/**
 * Writes one stream's {@link StreamEvent}s as Messages API events, the reverse of
 * {@link AnthropicStreamDecoder}: deltas of one kind share a content block, a change of kind
 * (or a new tool call) closes it and opens the next, and since the usage may come after the
 * stop, {@code message_delta} and {@code message_stop} are written by {@link #finish()}.
 * Anthropic's blocks cannot interleave, so a fragment of a tool call other than the open
 * one is refused. One per stream.
 */
public final class AnthropicStreamEncoder {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** One event: its SSE {@code event:} name and its data. */
    public record Event(String name, ObjectNode data) {}

    private int openIndex = -1;
    private String openKind;
    private FinishReason finish;
    private Usage usage = Usage.NONE;

    /** The events for {@code events}, in order. */
    public List<Event> encode(List<StreamEvent> events) {
        List<Event> out = new ArrayList<>();
        for (StreamEvent event : events) {
            switch (event) {
                case Started started -> out.add(started(started));
                case TextDelta text -> {
                    open(out, "text", () -> NODES.objectNode().put("type", "text").put("text", ""));
                    out.add(delta(NODES.objectNode().put("type", "text_delta").put("text", text.text())));
                }
                case ReasoningDelta reasoning when reasoning.redacted() -> {
                    open(out, "redacted", () -> NODES.objectNode().put("type", "redacted_thinking").put("data", reasoning.text()));
                    close(out);
                }
                case ReasoningDelta reasoning -> reasoning(out, reasoning);
                case ToolCallDelta call -> toolCall(out, call);
                case Finished finished -> {
                    close(out);
                    finish = finished.reason();
                }
                case UsageReported reported -> usage = reported.usage();
            }
        }
        return out;
    }

    /** The closing events once the stream is over: none when the model never said why it stopped. */
    public List<Event> finish() {
        List<Event> out = new ArrayList<>();
        close(out);
        if (finish == null) {
            return out;
        }
        ObjectNode delta = NODES.objectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", AnthropicAnswerEncoder.stopReason(finish)).putNull("stop_sequence");
        delta.set("usage", AnthropicAnswerEncoder.usage(usage));
        out.add(new Event("message_delta", delta));
        out.add(new Event("message_stop", NODES.objectNode().put("type", "message_stop")));
        return out;
    }

    private static Event started(Started started) {
        ObjectNode message = NODES.objectNode().put("id", started.id()).put("type", "message").put("role", "assistant")
                .put("model", started.model());
        message.putArray("content");
        message.putNull("stop_reason").putNull("stop_sequence");
        message.set("usage", AnthropicAnswerEncoder.usage(Usage.NONE));
        return new Event("message_start", NODES.objectNode().put("type", "message_start").set("message", message));
    }

    private void reasoning(List<Event> out, ReasoningDelta reasoning) {
        open(out, "thinking", () -> NODES.objectNode().put("type", "thinking").put("thinking", "").put("signature", ""));
        if (!reasoning.text().isEmpty()) {
            out.add(delta(NODES.objectNode().put("type", "thinking_delta").put("thinking", reasoning.text())));
        }
        if (reasoning.signature() != null) {
            out.add(delta(NODES.objectNode().put("type", "signature_delta").put("signature", reasoning.signature())));
        }
    }

    private void toolCall(List<Event> out, ToolCallDelta call) {
        String kind = "tool:" + call.index();
        // Some OpenAI-compatible servers repeat the call's id on every fragment: one call is one block.
        if (call.id() != null && !kind.equals(openKind)) {
            close(out);
            open(out, kind, () -> {
                ObjectNode block = NODES.objectNode().put("type", "tool_use").put("id", call.id()).put("name", call.name());
                block.putObject("input");
                return block;
            });
        } else if (!kind.equals(openKind)) {
            throw new IllegalArgumentException("ToolCallDelta.index: " + call.index()
                    + " (expected: fragments of the open tool call; Anthropic's blocks cannot interleave)");
        }
        if (!call.arguments().isEmpty()) {
            out.add(delta(NODES.objectNode().put("type", "input_json_delta").put("partial_json", call.arguments())));
        }
    }

    private void open(List<Event> out, String kind, java.util.function.Supplier<ObjectNode> block) {
        if (kind.equals(openKind)) {
            return;
        }
        close(out);
        openIndex++;
        openKind = kind;
        out.add(new Event("content_block_start", NODES.objectNode().put("type", "content_block_start").put("index", openIndex)
                .set("content_block", block.get())));
    }

    private void close(List<Event> out) {
        if (openKind != null) {
            out.add(new Event("content_block_stop", NODES.objectNode().put("type", "content_block_stop").put("index", openIndex)));
            openKind = null;
        }
    }

    private Event delta(ObjectNode delta) {
        ObjectNode event = NODES.objectNode().put("type", "content_block_delta").put("index", openIndex);
        event.set("delta", delta);
        return new Event("content_block_delta", event);
    }
}
