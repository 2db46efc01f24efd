package dev.sluice.vendors.anthropic.mock;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.vendors.mock.MockReplies;
import dev.sluice.vendors.mock.MockTokens;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the Anthropic mock answers, as content blocks: with extended thinking asked, a signed
 * thinking block first; then, when tools are given and the last user turn answers none, a
 * call of the tool {@code tool_choice} names (else the first) with input
 * {@code {"text": <what the user said>}}; otherwise the text
 * {@code [name] you said: <first 40 characters of the last user text>}, or
 * {@code [name] the tool said: ...} after tool results. A refusal ({@code policy}) has no
 * blocks and stops with {@code refusal}. Usage counts a quarter of the characters, and when
 * the body asks for caching ({@code cache_control}) half the prompt is read from the cache.
 * {@link AnthropicMockStream} sends the same answer as events.
 */
public final class AnthropicMockReplies {
    static final String SIGNATURE = "bW9jay1zaWduYXR1cmU=";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String name;
    private final AtomicLong ids = new AtomicLong();

    public AnthropicMockReplies(String name) {
        this.name = name;
    }

    /** One block of an answer; {@code input} is set for a tool call only. */
    record Block(String type, String text, String toolId, String toolName, ObjectNode input) {}

    /** A whole answer: its id, blocks, stop reason and token counts. */
    public record Reply(String id, String model, List<Block> blocks, String stopReason, ObjectNode usage, int outputTokens) {}

    public Reply reply(AnthropicMockCall call, boolean refuse) {
        long n = ids.incrementAndGet();
        List<Block> blocks = new ArrayList<>();
        String stop = "end_turn";
        if (refuse) {
            stop = "refusal";
        } else {
            if (call.thinking()) {
                blocks.add(new Block("thinking", "[" + name + "] thinking about: " + echo(call.lastUserText()), null, null, null));
            }
            if (call.toolToCall() != null) {
                blocks.add(new Block("tool_use", null, "toolu_mock_" + n, call.toolToCall(),
                        NODES.objectNode().put("text", echo(call.lastUserText()))));
                stop = "tool_use";
            } else if (call.toolResultText() != null) {
                blocks.add(new Block("text", "[" + name + "] the tool said: " + echo(call.toolResultText()), null, null, null));
            } else {
                blocks.add(new Block("text", "[" + name + "] you said: " + echo(call.lastUserText()), null, null, null));
            }
        }
        int outputChars = blocks.stream().mapToInt(b -> b.input() != null ? b.input().toString().length() : b.text().length()).sum();
        int output = MockTokens.estimate(outputChars);
        return new Reply("msg_mock_" + n, call.model(), blocks, stop, usage(call, output), output);
    }

    static String echo(String said) {
        return said.codePointCount(0, said.length()) > MockReplies.ECHO_CHARS
                ? said.substring(0, said.offsetByCodePoints(0, MockReplies.ECHO_CHARS)) : said;
    }

    private static ObjectNode usage(AnthropicMockCall call, int output) {
        int prompt = MockTokens.estimate(call.promptChars());
        int cacheRead = call.cached() ? prompt / 2 : 0;
        return NODES.objectNode().put("input_tokens", prompt - cacheRead).put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", cacheRead).put("output_tokens", output);
    }

    /** The answer as the body of a whole (not streamed) Messages answer. */
    public static ObjectNode message(Reply reply) {
        ObjectNode message = NODES.objectNode().put("id", reply.id()).put("type", "message").put("role", "assistant")
                .put("model", reply.model());
        ArrayNode content = message.putArray("content");
        reply.blocks().forEach(block -> content.add(whole(block)));
        message.put("stop_reason", reply.stopReason()).putNull("stop_sequence");
        message.set("usage", reply.usage());
        return message;
    }

    private static ObjectNode whole(Block block) {
        return switch (block.type()) {
            case "thinking" -> NODES.objectNode().put("type", "thinking").put("thinking", block.text()).put("signature", SIGNATURE);
            case "tool_use" -> {
                ObjectNode node = NODES.objectNode().put("type", "tool_use").put("id", block.toolId()).put("name", block.toolName());
                node.set("input", block.input());
                yield node;
            }
            default -> NODES.objectNode().put("type", "text").put("text", block.text());
        };
    }
}
