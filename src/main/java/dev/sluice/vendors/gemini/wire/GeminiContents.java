package dev.sluice.vendors.gemini.wire;

import static dev.sluice.vendors.gemini.wire.GeminiRequests.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The conversation as Gemini's {@code contents} and {@code systemInstruction}. Gemini knows two
 * roles, {@code user} and {@code model}, and wants them to alternate: every {@code system} or
 * {@code developer} message, wherever it stands, becomes a part of {@code systemInstruction}
 * in order; tool results are {@code functionResponse} parts of a {@code user} turn; and
 * consecutive turns of the same role are merged into one, which is also how the answers to
 * parallel tool calls come to share a turn as Gemini requires.
 */
final class GeminiContents {

    /** The written conversation; {@code systemInstruction} is empty when no message instructs. */
    record Written(ArrayNode contents, Optional<ObjectNode> systemInstruction) {}

    private GeminiContents() {}

    static Written encode(List<Message> messages) {
        ArrayNode contents = NODES.arrayNode();
        ArrayNode systemParts = NODES.arrayNode();
        Map<String, String> functionOfCall = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            String where = "messages[" + i + "]";
            if (message.role().instructs()) {
                systemParts.addAll(parts(message, where, functionOfCall));
                continue;
            }
            ArrayNode parts = parts(message, where, functionOfCall);
            if (parts.isEmpty()) {
                continue; // only reasoning or empty text: Gemini takes no thoughts back and refuses empty parts
            }
            String role = message.role() == Role.ASSISTANT ? "model" : "user";
            JsonNode last = contents.isEmpty() ? null : contents.get(contents.size() - 1);
            if (last != null && role.equals(last.path("role").asText())) {
                ((ArrayNode) last.get("parts")).addAll(parts);
            } else {
                ObjectNode content = contents.addObject().put("role", role);
                content.set("parts", parts);
            }
        }
        Optional<ObjectNode> system = Optional.empty();
        if (!systemParts.isEmpty()) {
            ObjectNode instruction = NODES.objectNode();
            instruction.set("parts", systemParts);
            system = Optional.of(instruction);
        }
        return new Written(contents, system);
    }

    private static ArrayNode parts(Message message, String where, Map<String, String> functionOfCall) {
        ArrayNode parts = NODES.arrayNode();
        for (int p = 0; p < message.parts().size(); p++) {
            String path = where + ".parts[" + p + "]";
            switch (message.parts().get(p)) {
                case ContentPart.Text text -> {
                    if (!text.text().isEmpty()) {
                        parts.addObject().put("text", text.text()); // Gemini refuses an empty text part
                    }
                }
                case ContentPart.Image image -> {
                    if (message.role().instructs()) {
                        throw new IllegalArgumentException(path + ": an image (expected: text only in a system message for Gemini)");
                    }
                    parts.add(GeminiImages.encode(image));
                }
                case ContentPart.ToolCall call -> {
                    functionOfCall.put(call.id(), call.name());
                    ObjectNode part = parts.addObject();
                    ObjectNode functionCall = part.putObject("functionCall").put("name", call.name());
                    functionCall.set("args", arguments(call, path));
                    int signature = call.id().indexOf(ToolCallIds.THOUGHT_SIGNATURE);
                    if (signature >= 0) {
                        part.put("thoughtSignature", call.id().substring(signature + ToolCallIds.THOUGHT_SIGNATURE.length()));
                    }
                }
                case ContentPart.ToolResult result -> parts.add(functionResponse(result, message, functionOfCall, path));
                case ContentPart.Reasoning reasoning -> { } // Gemini keeps its thoughts; they are not sent back
            }
        }
        return parts;
    }

    /** Gemini takes a call's arguments as a JSON object, not as the text OpenAI carries. */
    private static JsonNode arguments(ContentPart.ToolCall call, String path) {
        String text = call.arguments().isBlank() ? "{}" : call.arguments();
        JsonNode args;
        try {
            args = Json.parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            args = null;
        }
        if (args == null || !args.isObject()) {
            throw new IllegalArgumentException(path + ".arguments: " + call.arguments()
                    + " (expected: a JSON object, which Gemini needs as the call's args)");
        }
        return args;
    }

    private static ObjectNode functionResponse(ContentPart.ToolResult result, Message message,
            Map<String, String> functionOfCall, String path) {
        String name = functionOfCall.get(result.toolCallId());
        if (name == null) {
            name = message.name();
        }
        if (name == null) {
            throw new IllegalArgumentException(path + ".tool_call_id: " + result.toolCallId()
                    + " (expected: the id of a tool call in an earlier assistant message; Gemini binds a result to its call"
                    + " by the function's name)");
        }
        StringBuilder text = new StringBuilder();
        for (ContentPart part : result.content()) {
            if (!(part instanceof ContentPart.Text t)) {
                throw new IllegalArgumentException(path + ".content: an image (expected: text only in a tool result for Gemini)");
            }
            text.append(t.text());
        }
        ObjectNode part = NODES.objectNode();
        ObjectNode response = part.putObject("functionResponse").put("name", name);
        response.putObject("response").put("content", text.toString());
        return part;
    }
}
