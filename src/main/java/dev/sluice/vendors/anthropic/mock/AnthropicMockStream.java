package dev.sluice.vendors.anthropic.mock;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockStreamEvents;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * An Anthropic mock answer as the Messages API streams it, event for event:
 * {@code message_start} (usage with the prompt's counts, one output token), then for each
 * content block a {@code content_block_start}, its deltas ({@code text_delta} per word,
 * {@code thinking_delta} then {@code signature_delta}, {@code input_json_delta} in two
 * pieces) and a {@code content_block_stop}, with one {@code ping} after the first block
 * started; then {@code message_delta} with the stop reason and the output tokens, and
 * {@code message_stop}.
 */
public final class AnthropicMockStream {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AnthropicMockStream() {}

    static List<Buffer> events(AnthropicMockReplies.Reply reply) {
        return nodes(reply).stream().map(node -> event(node.path("type").asText(), node)).toList();
    }

    /** The same events as JSON objects, each naming itself in {@code type}: what Bedrock's chunks carry. */
    public static List<ObjectNode> nodes(AnthropicMockReplies.Reply reply) {
        List<ObjectNode> events = new ArrayList<>();
        ObjectNode message = AnthropicMockReplies.message(reply);
        message.putArray("content");
        message.putNull("stop_reason");
        ObjectNode startUsage = reply.usage().deepCopy().put("output_tokens", 1);
        message.set("usage", startUsage);
        events.add(NODES.objectNode().put("type", "message_start").set("message", message));
        for (int i = 0; i < reply.blocks().size(); i++) {
            block(events, i, reply.blocks().get(i));
            if (i == 0) {
                events.add(2, NODES.objectNode().put("type", "ping"));
            }
        }
        ObjectNode delta = NODES.objectNode().put("type", "message_delta");
        delta.putObject("delta").put("stop_reason", reply.stopReason()).putNull("stop_sequence");
        delta.putObject("usage").put("output_tokens", reply.outputTokens());
        events.add(delta);
        events.add(NODES.objectNode().put("type", "message_stop"));
        return events;
    }

    private static void block(List<ObjectNode> events, int index, AnthropicMockReplies.Block block) {
        ObjectNode start = NODES.objectNode().put("type", "content_block_start").put("index", index);
        ObjectNode content = start.putObject("content_block").put("type", block.type());
        switch (block.type()) {
            case "thinking" -> {
                content.put("thinking", "").put("signature", "");
                events.add(start);
                events.add(delta(index, NODES.objectNode().put("type", "thinking_delta").put("thinking", block.text())));
                events.add(delta(index, NODES.objectNode().put("type", "signature_delta").put("signature", AnthropicMockReplies.SIGNATURE)));
            }
            case "tool_use" -> {
                content.put("id", block.toolId()).put("name", block.toolName()).putObject("input");
                events.add(start);
                String json = block.input().toString();
                int half = json.length() / 2;
                events.add(delta(index, NODES.objectNode().put("type", "input_json_delta").put("partial_json", json.substring(0, half))));
                events.add(delta(index, NODES.objectNode().put("type", "input_json_delta").put("partial_json", json.substring(half))));
            }
            default -> {
                content.put("text", "");
                events.add(start);
                for (String word : MockStreamEvents.words(block.text())) {
                    events.add(delta(index, NODES.objectNode().put("type", "text_delta").put("text", word)));
                }
            }
        }
        events.add(NODES.objectNode().put("type", "content_block_stop").put("index", index));
    }

    private static ObjectNode delta(int index, ObjectNode delta) {
        ObjectNode event = NODES.objectNode().put("type", "content_block_delta").put("index", index);
        event.set("delta", delta);
        return event;
    }

    static Buffer event(String name, ObjectNode data) {
        try {
            return Buffer.buffer("event: " + name + "\ndata: " + MAPPER.writeValueAsString(data) + "\n\n");
        } catch (com.fasterxml.jackson.core.JsonProcessingException cannotHappenInMemory) {
            throw new IllegalStateException(cannotHappenInMemory);
        }
    }
}
