package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import java.util.List;
import java.util.Locale;

/**
 * A conversation as Converse takes it: instructions apart in {@code system}, and turns that
 * strictly alternate between {@code user} and {@code assistant}. Every system or developer
 * message, wherever it stands, joins {@code system} in order; tool results are user turns; two
 * turns in a row of the same role become one, their blocks kept in order.
 */
final class ConverseMessages {
    private ConverseMessages() {}

    /** The {@code system} blocks: the text of every instruction message, in order, cache points after their texts. */
    static ArrayNode system(List<Message> messages, ConverseCachePoints cachePoints) {
        ArrayNode system = NODES.arrayNode();
        for (Text text : Message.instructionTexts(messages, (i, j, message) -> "messages[" + i + "].content[" + j + "]: "
                + message.parts().get(j).getClass().getSimpleName().toLowerCase(Locale.ROOT)
                + " (expected: text only in a " + message.role().name().toLowerCase(Locale.ROOT)
                + " message; Bedrock's system prompt is text)")) {
            system.addObject().put("text", text.text());
            addIfAny(system, cachePoints.after(text.cache()));
        }
        return system;
    }

    /** The {@code messages}: every other turn, same-role neighbours merged, cache points after their blocks. */
    static ArrayNode turns(List<Message> messages, ConverseCachePoints cachePoints) {
        ArrayNode turns = NODES.arrayNode();
        String lastRole = null;
        ArrayNode content = null;
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            if (message.role().instructs()) {
                continue;
            }
            String role = message.role() == Role.ASSISTANT ? "assistant" : "user";
            if (!role.equals(lastRole)) {
                ObjectNode turn = turns.addObject().put("role", role);
                content = turn.putArray("content");
                lastRole = role;
            }
            for (int j = 0; j < message.parts().size(); j++) {
                ContentPart part = message.parts().get(j);
                ObjectNode block = ConverseContent.block(part, "messages[" + i + "].content[" + j + "]");
                if (block != null) {
                    content.add(block);
                    addIfAny(content, cachePoints.after(ConverseCachePoints.of(part)));
                }
            }
        }
        // A turn left without blocks (an assistant turn of empty text) is refused by Converse: it gets a full stop instead.
        for (int i = 0; i < turns.size(); i++) {
            if (turns.get(i).path("content").isEmpty()) {
                ((ArrayNode) turns.get(i).get("content")).addObject().put("text", ".");
            }
        }
        return turns;
    }

    private static void addIfAny(ArrayNode blocks, ObjectNode block) {
        if (block != null) {
            blocks.add(block);
        }
    }

    /** Whether the conversation holds tool calls or results: Converse then wants a {@code toolConfig}. */
    static boolean usesTools(List<Message> messages) {
        for (Message message : messages) {
            for (ContentPart part : message.parts()) {
                if (part instanceof ToolCall || part instanceof ToolResult) {
                    return true;
                }
            }
        }
        return false;
    }
}
