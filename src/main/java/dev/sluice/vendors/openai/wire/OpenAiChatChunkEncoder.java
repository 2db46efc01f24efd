package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.StreamEvent;
import dev.sluice.model.StreamEvent.Finished;
import dev.sluice.model.StreamEvent.ReasoningDelta;
import dev.sluice.model.StreamEvent.Started;
import dev.sluice.model.StreamEvent.TextDelta;
import dev.sluice.model.StreamEvent.ToolCallDelta;
import dev.sluice.model.StreamEvent.UsageReported;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one stream's {@link StreamEvent}s as chat-completion chunks. Events that one chunk can
 * hold, in the order {@link OpenAiChatChunkDecoder} reads them (started, reasoning, text, tool-call
 * fragments, finished, usage), share a chunk, so the events of one decoded chunk encode back
 * into one; any other event opens the next chunk. A chunk holding only usage has
 * {@code choices: []}, as OpenAI's last chunk under {@code stream_options.include_usage} does.
 * One encoder per stream: every chunk repeats the id and model of its {@code Started} event.
 */
public final class OpenAiChatChunkEncoder {
    private final long created;
    private String id;
    private String model;
    private ObjectNode chunk;
    private ObjectNode choice;
    private int lastRank;

    /** @param created the stream's Unix time in seconds, which every chunk repeats */
    public OpenAiChatChunkEncoder(long created) {
        this.created = created;
    }

    /** The chunks for {@code events}: one when they fit one chunk, more when they do not. */
    public List<ObjectNode> encode(List<StreamEvent> events) {
        List<ObjectNode> chunks = new ArrayList<>();
        chunk = null;
        for (int i = 0; i < events.size(); i++) {
            StreamEvent event = events.get(i);
            int rank = rank(event);
            if (chunk == null || rank < lastRank || (rank == lastRank && !(event instanceof ToolCallDelta))) {
                chunks.add(open(event, i));
            }
            lastRank = rank;
            write(event);
        }
        return chunks;
    }

    private ObjectNode open(StreamEvent event, int index) {
        if (event instanceof Started started) {
            if (id != null) {
                throw new IllegalArgumentException("events[" + index + "]: Started (expected: one Started per stream)");
            }
            id = started.id();
            model = started.model();
        } else if (id == null) {
            throw new IllegalArgumentException("events[" + index + "]: " + event.getClass().getSimpleName()
                    + " (expected: Started first)");
        }
        chunk = NODES.objectNode().put("id", id).put("object", "chat.completion.chunk").put("created", created).put("model", model);
        chunk.putArray("choices");
        choice = null;
        return chunk;
    }

    private static int rank(StreamEvent event) {
        return switch (event) {
            case Started started -> 0;
            case ReasoningDelta reasoning -> 1;
            case TextDelta text -> 2;
            case ToolCallDelta call -> 3;
            case Finished finished -> 4;
            case UsageReported usage -> 5;
        };
    }

    private void write(StreamEvent event) {
        switch (event) {
            case Started started -> delta().put("role", "assistant").put("content", "");
            case ReasoningDelta reasoning -> {
                if (!reasoning.redacted()) {
                    delta().put("reasoning_content", reasoning.text());
                }
                if (reasoning.redacted() || reasoning.signature() != null) {
                    delta().putArray("thinking_blocks")
                            .add(OpenAiContent.thinkingBlock(reasoning.text(), reasoning.signature(), reasoning.redacted()));
                }
            }
            case TextDelta text -> delta().put("content", text.text());
            case ToolCallDelta call -> toolCall(call);
            case Finished finished -> choice().put("finish_reason", OpenAiUsage.encodeFinish(finished.reason()));
            case UsageReported usage -> chunk.set("usage", OpenAiUsage.encode(usage.usage()));
        }
    }

    private void toolCall(ToolCallDelta call) {
        ArrayNode calls = delta().has("tool_calls") ? (ArrayNode) delta().get("tool_calls") : delta().putArray("tool_calls");
        ObjectNode fragment = calls.addObject().put("index", call.index());
        if (call.id() != null) {
            fragment.put("id", call.id()).put("type", "function");
        }
        ObjectNode function = fragment.putObject("function");
        if (call.name() != null) {
            function.put("name", call.name());
        }
        function.put("arguments", call.arguments());
    }

    private ObjectNode choice() {
        if (choice == null) {
            choice = ((ArrayNode) chunk.get("choices")).addObject().put("index", 0);
            choice.putObject("delta");
            choice.putNull("finish_reason");
        }
        return choice;
    }

    private ObjectNode delta() {
        return (ObjectNode) choice().get("delta");
    }
}
