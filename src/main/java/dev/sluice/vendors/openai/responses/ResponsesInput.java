package dev.sluice.vendors.openai.responses;

import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;
import static dev.sluice.vendors.openai.responses.ResponsesFields.nonBlank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request's {@code input} into {@link Message}s: a string is one user message; an array
 * holds items. A {@code message} item (or an item with a {@code role} and no {@code type}) is a
 * message; a {@code function_call} is an assistant's tool call and a
 * {@code function_call_output} a {@code tool} message; a {@code reasoning} item is the
 * assistant's reasoning. What the assistant said in one turn comes as several items
 * (reasoning, its message, its calls), which join into one assistant message until a call has
 * been made; calls made one after another join too.
 */
final class ResponsesInput {
    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);
    private static final String ITEM_TYPES = "message, function_call, function_call_output or reasoning";
    private static final String ROLES = "user, assistant, system or developer";

    private ResponsesInput() {}

    static List<Message> decode(JsonNode input, String path) {
        if (input != null && input.isTextual()) {
            return List.of(Message.text(Role.USER, input.textValue()));
        }
        if (absent(input) || !input.isArray()) {
            throw refused(path, input, "a string or an array of input items");
        }
        ArrayNode items = array(input, path);
        if (items.isEmpty()) {
            throw refused(path, items, "at least one input item");
        }
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            item(object(items.get(i), path(path, i)), path(path, i), messages);
        }
        return messages;
    }

    private static void item(ObjectNode item, String path, List<Message> messages) {
        String type = optionalText(item, "type", path);
        if (type == null && item.has("role")) {
            type = "message";
        }
        switch (type == null ? "" : type) {
            case "message" -> message(item, path, messages);
            case "function_call" -> joinAssistant(messages, new ToolCall(nonBlank(item, "call_id", path), nonBlank(item, "name", path),
                    text(item, "arguments", path)), true);
            case "function_call_output" -> messages.add(new Message(Role.TOOL, List.of(new ToolResult(nonBlank(item, "call_id", path),
                    parts(item.get("output"), path(path, "output"), Role.TOOL), false)), null));
            case "reasoning" -> {
                Reasoning reasoning = ResponsesReasoning.decode(item, path);
                if (reasoning != null) {
                    joinAssistant(messages, reasoning, false);
                }
            }
            default -> throw refused(path(path, "type"), item.get("type"), ITEM_TYPES);
        }
    }

    private static void message(ObjectNode item, String path, List<Message> messages) {
        Role role = switch (text(item, "role", path)) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            case "system" -> Role.SYSTEM;
            case "developer" -> Role.DEVELOPER;
            default -> throw refused(path(path, "role"), item.get("role"), ROLES);
        };
        List<ContentPart> parts = parts(item.get("content"), path(path, "content"), role);
        if (role != Role.ASSISTANT) {
            messages.add(new Message(role, parts, null));
            return;
        }
        for (ContentPart part : parts) {
            joinAssistant(messages, part, false);
        }
        if (parts.isEmpty()) {
            messages.add(new Message(Role.ASSISTANT, List.of(), null));
        }
    }

    /**
     * Adds {@code part} to the last message when it is the assistant's and has made no call yet
     * (a call joins calls too, when {@code call} is true); else to a new assistant message.
     */
    private static void joinAssistant(List<Message> messages, ContentPart part, boolean call) {
        Message last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
        if (last != null && last.role() == Role.ASSISTANT && (call || last.parts().stream().noneMatch(ToolCall.class::isInstance))) {
            List<ContentPart> parts = new ArrayList<>(last.parts());
            parts.add(part);
            messages.set(messages.size() - 1, new Message(Role.ASSISTANT, parts, last.name()));
        } else {
            messages.add(new Message(Role.ASSISTANT, List.of(part), null));
        }
    }

    /** A string as one text part, or an array of content parts; images only from the user or a tool. */
    private static List<ContentPart> parts(JsonNode content, String path, Role role) {
        if (content != null && content.isTextual()) {
            return List.of(new Text(content.textValue()));
        }
        if (absent(content) || !content.isArray()) {
            throw refused(path, content, "a string or an array of content parts");
        }
        boolean images = role == Role.USER || role == Role.TOOL;
        String expected = role == Role.ASSISTANT ? "output_text or refusal"
                : images ? "input_text or input_image" : "input_text";
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            String partPath = path(path, i);
            ObjectNode part = object(content.get(i), partPath);
            String type = text(part, "type", partPath);
            switch (type) {
                case "input_text", "output_text" -> parts.add(new Text(text(part, "text", partPath)));
                case "refusal" -> parts.add(new Text(text(part, "refusal", partPath)));
                case "input_image" -> {
                    if (!images) {
                        throw refused(path(partPath, "type"), part.get("type"), expected);
                    }
                    parts.add(image(part, partPath));
                }
                default -> throw refused(path(partPath, "type"), part.get("type"), expected);
            }
        }
        return parts;
    }

    private static Image image(ObjectNode part, String path) {
        if (!absent(part.get("file_id"))) {
            throw refused(path(path, "file_id"), part.get("file_id"), "image_url; an uploaded file cannot be sent on");
        }
        String url = text(part, "image_url", path);
        String detail = optionalText(part, "detail", path);
        Matcher data = DATA_URL.matcher(url);
        return data.matches() ? Image.inline(data.group(1), data.group(2), detail) : Image.atUrl(url, detail);
    }
}
