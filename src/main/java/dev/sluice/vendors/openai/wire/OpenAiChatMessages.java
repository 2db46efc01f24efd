package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.CacheControl;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * OpenAI's {@code messages[]} to and from {@link Message}s. OpenAI gives each tool result a
 * message of its own ({@code role: tool}, {@code tool_call_id}); Anthropic puts them inside a
 * user message. So one {@code Message} may encode as several OpenAI messages: its tool
 * results first, each as a {@code tool} message, then whatever else it holds.
 */
final class OpenAiChatMessages {
    private static final String ROLES = "one of system, developer, user, assistant, tool";

    private OpenAiChatMessages() {}

    static List<Message> decode(JsonNode messages, String path) {
        ArrayNode array = array(messages, path);
        if (array.isEmpty()) {
            throw refused(path, array, "at least one message");
        }
        List<Message> decoded = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            decoded.add(decodeOne(array.get(i), path(path, i)));
        }
        return decoded;
    }

    private static Message decodeOne(JsonNode node, String path) {
        ObjectNode message = object(node, path);
        String name = optionalText(message, "name", path);
        JsonNode content = message.get("content");
        String at = path(path, "content");
        // A message's own cache_control marks its last part, as LiteLLM reads it.
        CacheControl cache = OpenAiCacheControl.read(message, path);
        return switch (text(message, "role", path)) {
            case "system" -> new Message(Role.SYSTEM, marked(OpenAiContent.decodeParts(content, at, false), cache), name);
            case "developer" -> new Message(Role.DEVELOPER, marked(OpenAiContent.decodeParts(content, at, false), cache), name);
            case "user" -> new Message(Role.USER, marked(OpenAiContent.decodeParts(content, at, true), cache), name);
            case "assistant" -> new Message(Role.ASSISTANT, marked(OpenAiContent.decodeAssistant(message, path), cache), name);
            case "tool" -> new Message(Role.TOOL, List.of(new ToolResult(text(message, "tool_call_id", path),
                    OpenAiContent.decodeParts(content, at, false), false, cache)), null);
            default -> throw refused(path(path, "role"), message.get("role"), ROLES);
        };
    }

    private static List<ContentPart> marked(List<ContentPart> parts, CacheControl cache) {
        return OpenAiCacheControl.onLastPart(parts, cache);
    }

    static ArrayNode encode(List<Message> messages) {
        ArrayNode array = NODES.arrayNode();
        for (int i = 0; i < messages.size(); i++) {
            encodeOne(messages.get(i), "messages[" + i + "].parts", array);
        }
        return array;
    }

    private static void encodeOne(Message message, String where, ArrayNode out) {
        List<ContentPart> rest = new ArrayList<>();
        for (ContentPart part : message.parts()) {
            if (part instanceof ToolResult result) {
                ObjectNode tool = out.addObject().put("role", "tool").put("tool_call_id", result.toolCallId());
                tool.set("content", OpenAiContent.encodeParts(result.content(), where + ".content", false));
                OpenAiCacheControl.write(result.cache(), tool);
            } else {
                rest.add(part);
            }
        }
        boolean onlyToolResults = rest.isEmpty() && !message.parts().isEmpty();
        if (message.role() == Role.TOOL || onlyToolResults) {
            return;
        }
        ObjectNode encoded = out.addObject().put("role", message.role().name().toLowerCase(Locale.ROOT));
        if (message.name() != null) {
            encoded.put("name", message.name());
        }
        if (message.role() == Role.ASSISTANT) {
            encodeAssistant(rest, where, encoded);
        } else {
            encoded.set("content", OpenAiContent.encodeParts(rest, where, message.role() == Role.USER));
        }
    }

    /** Reasoning, text and tool calls of an assistant turn; {@code content} is left out when tool calls stand alone. */
    private static void encodeAssistant(List<ContentPart> parts, String where, ObjectNode message) {
        List<ContentPart> texts = new ArrayList<>();
        List<ToolCall> calls = new ArrayList<>();
        List<Reasoning> reasoning = new ArrayList<>();
        for (ContentPart part : parts) {
            switch (part) {
                case ToolCall call -> calls.add(call);
                case Reasoning thought -> reasoning.add(thought);
                default -> texts.add(part);
            }
        }
        if (!texts.isEmpty()) {
            message.set("content", OpenAiContent.encodeParts(texts, where, false));
        } else if (calls.isEmpty()) {
            message.put("content", "");
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", OpenAiContent.encodeToolCalls(calls));
        }
        OpenAiContent.encodeReasoning(reasoning, message);
    }
}
