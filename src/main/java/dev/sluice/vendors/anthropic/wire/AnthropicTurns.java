package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import java.util.List;

/**
 * A conversation as Anthropic's Messages API takes it: every {@code system} and
 * {@code developer} message, wherever it stands, joins the top-level {@code system} in order;
 * the rest become {@code user} and {@code assistant} turns that strictly alternate, as
 * Anthropic requires, so consecutive turns of one speaker are merged into one and tool
 * results ({@code role: tool} in OpenAI) are user turns of {@code tool_result} blocks.
 *
 * <p>A part's cache breakpoint becomes {@code cache_control} on the block it becomes. An
 * empty text is left out, and its breakpoint with it.
 *
 * <p>Reasoning goes back only as Anthropic signed it: a thinking block with its signature or
 * a redacted block. Reasoning without a signature (OpenAI's bare {@code reasoning_content})
 * cannot be verified by Anthropic, so it is left out, as LiteLLM leaves it out.
 */
final class AnthropicTurns {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AnthropicTurns() {}

    /** The top-level {@code system} as text blocks, in order; empty when no message instructs. */
    static ArrayNode system(List<Message> messages) {
        ArrayNode system = NODES.arrayNode();
        for (Text text : Message.instructionTexts(messages, (i, j, message) -> "messages[" + i + "].content[" + j + "]: "
                + message.parts().get(j).getClass().getSimpleName() + " (expected: text in a system message)")) {
            system.add(AnthropicCacheControl.write(text.cache(), text(text.text())));
        }
        return system;
    }

    /** The user and assistant turns, merged so that they alternate. */
    static ArrayNode messages(List<Message> messages) {
        ArrayNode turns = NODES.arrayNode();
        String lastRole = null;
        ArrayNode lastContent = null;
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            if (message.role().instructs()) {
                continue;
            }
            String role = message.role() == Role.ASSISTANT ? "assistant" : "user";
            ArrayNode blocks = blocks(message, "messages[" + i + "]");
            if (blocks.isEmpty()) {
                continue;
            }
            if (role.equals(lastRole)) {
                lastContent.addAll(blocks);
            } else {
                ObjectNode turn = turns.addObject().put("role", role);
                lastContent = turn.putArray("content");
                lastContent.addAll(blocks);
                lastRole = role;
            }
        }
        return turns;
    }

    private static ArrayNode blocks(Message message, String path) {
        ArrayNode blocks = NODES.arrayNode();
        for (int j = 0; j < message.parts().size(); j++) {
            ContentPart part = message.parts().get(j);
            String partPath = path + ".content[" + j + "]";
            switch (part) {
                case Text text -> {
                    // Anthropic refuses an empty text block; an empty content beside tool calls means nothing.
                    if (!text.text().isEmpty()) {
                        blocks.add(AnthropicCacheControl.write(text.cache(), text(text.text())));
                    }
                }
                case Image image -> {
                    if (message.role() == Role.ASSISTANT) {
                        throw new IllegalArgumentException(partPath + ": Image (expected: no image in an assistant turn; Anthropic takes images from the user)");
                    }
                    blocks.add(AnthropicCacheControl.write(image.cache(), image(image)));
                }
                case ToolCall call -> blocks.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                        .set("input", AnthropicToolInput.parse(call.arguments(), partPath + ".function.arguments"));
                case ToolResult result -> blocks.add(toolResult(result));
                case Reasoning reasoning -> {
                    if (reasoning.redacted()) {
                        blocks.addObject().put("type", "redacted_thinking").put("data", reasoning.text());
                    } else if (reasoning.signature() != null) {
                        blocks.addObject().put("type", "thinking").put("thinking", reasoning.text())
                                .put("signature", reasoning.signature());
                    }
                }
            }
        }
        return blocks;
    }

    static ObjectNode text(String text) {
        return NODES.objectNode().put("type", "text").put("text", text);
    }

    /** An inline image as a base64 source, one at a URL as a url source. */
    static ObjectNode image(Image image) {
        ObjectNode block = NODES.objectNode().put("type", "image");
        ObjectNode source = block.putObject("source");
        if (image.inline()) {
            source.put("type", "base64").put("media_type", image.mediaType()).put("data", image.data());
        } else {
            source.put("type", "url").put("url", image.url());
        }
        return block;
    }

    /**
     * A tool result bound to its {@code tool_use} id: text alone as a string, else blocks (also
     * when a part inside carries a cache breakpoint, which only a block can hold).
     */
    private static ObjectNode toolResult(ToolResult result) {
        ObjectNode block = NODES.objectNode().put("type", "tool_result").put("tool_use_id", result.toolCallId());
        boolean onlyText = result.content().stream().allMatch(part -> part instanceof Text text && text.cache() == null);
        if (onlyText) {
            StringBuilder joined = new StringBuilder();
            result.content().forEach(part -> joined.append(((Text) part).text()));
            block.put("content", joined.toString());
        } else {
            ArrayNode content = block.putArray("content");
            for (ContentPart part : result.content()) {
                content.add(part instanceof Image image ? AnthropicCacheControl.write(image.cache(), image(image))
                        : AnthropicCacheControl.write(((Text) part).cache(), text(((Text) part).text())));
            }
        }
        if (result.isError()) {
            block.put("is_error", true);
        }
        return AnthropicCacheControl.write(result.cache(), block);
    }
}
