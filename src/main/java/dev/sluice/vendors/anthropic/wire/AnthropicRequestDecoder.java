package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Dialect;
import dev.sluice.model.ExtraFields;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Messages API request body as a {@link ChatRequest}, for an entry API that takes
 * Anthropic's requests. The top-level {@code system} becomes one system message first;
 * fields the model has no term for ({@code metadata}, {@code thinking}, {@code top_k}, ...)
 * are kept as extra fields of {@link Dialect#ANTHROPIC}. {@code tool_choice}'s
 * {@code disable_parallel_tool_use} has no internal term and is not kept. A malformed value
 * is refused with an {@link IllegalArgumentException} naming its JSON path. A block's or a
 * tool's {@code cache_control} is kept as its cache breakpoint; on a {@code tool_use} or
 * thinking block, which carry none in the internal model, it is not kept.
 */
final class AnthropicRequestDecoder {
    private static final Set<String> COVERED = Set.of("model", "system", "messages", "tools", "tool_choice", "max_tokens",
            "temperature", "top_p", "stop_sequences", "stream");

    private AnthropicRequestDecoder() {}

    static ChatRequest decode(JsonNode node) {
        ObjectNode body = object(node, "$");
        String model = text(body, "model", "model");
        List<Message> messages = new ArrayList<>();
        JsonNode system = body.get("system");
        if (present(system)) {
            messages.add(new Message(Role.SYSTEM, texts(system, "system"), null));
        }
        JsonNode turns = body.get("messages");
        if (turns == null || !turns.isArray()) {
            throw refused("messages", turns, "an array of messages");
        }
        for (int i = 0; i < turns.size(); i++) {
            messages.add(message(object(turns.get(i), "messages[" + i + "]"), "messages[" + i + "]"));
        }
        Map<String, JsonNode> extra = new LinkedHashMap<>();
        body.properties().forEach(field -> {
            if (!COVERED.contains(field.getKey())) {
                extra.put(field.getKey(), field.getValue().deepCopy());
            }
        });
        return new ChatRequest(model, messages, tools(body.get("tools")), toolChoice(body.get("tool_choice")), sampling(body),
                body.path("stream").asBoolean(false), new ExtraFields(Dialect.ANTHROPIC, extra));
    }

    private static Message message(ObjectNode message, String path) {
        String role = text(message, "role", path + ".role");
        Role decoded = switch (role) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            default -> throw refused(path + ".role", message.get("role"), "user or assistant");
        };
        JsonNode content = message.get("content");
        if (content != null && content.isTextual()) {
            return Message.text(decoded, content.textValue());
        }
        if (content == null || !content.isArray()) {
            throw refused(path + ".content", content, "a string or an array of content blocks");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            parts.add(block(object(content.get(i), path + ".content[" + i + "]"), path + ".content[" + i + "]"));
        }
        return new Message(decoded, parts, null);
    }

    private static ContentPart block(ObjectNode block, String path) {
        return switch (text(block, "type", path + ".type")) {
            case "text" -> new Text(text(block, "text", path + ".text"), AnthropicCacheControl.read(block, path));
            case "image" -> image(object(block.get("source"), path + ".source"), path + ".source")
                    .withCache(AnthropicCacheControl.read(block, path));
            case "tool_use" -> new ToolCall(text(block, "id", path + ".id"), text(block, "name", path + ".name"),
                    AnthropicToolInput.text(object(block.get("input"), path + ".input")));
            case "tool_result" -> new ToolResult(text(block, "tool_use_id", path + ".tool_use_id"), toolContent(block.get("content"),
                    path + ".content"), block.path("is_error").asBoolean(false), AnthropicCacheControl.read(block, path));
            case "thinking" -> new Reasoning(text(block, "thinking", path + ".thinking"),
                    block.path("signature").isTextual() ? block.get("signature").textValue() : null, false);
            case "redacted_thinking" -> new Reasoning(text(block, "data", path + ".data"), null, true);
            default -> throw refused(path + ".type", block.get("type"), "text, image, tool_use, tool_result, thinking or redacted_thinking");
        };
    }

    private static Image image(ObjectNode source, String path) {
        return switch (text(source, "type", path + ".type")) {
            case "base64" -> Image.inline(text(source, "media_type", path + ".media_type"), text(source, "data", path + ".data"), null);
            case "url" -> Image.atUrl(text(source, "url", path + ".url"), null);
            default -> throw refused(path + ".type", source.get("type"), "base64 or url");
        };
    }

    private static List<ContentPart> toolContent(JsonNode content, String path) {
        if (!present(content)) {
            return List.of();
        }
        if (content.isTextual()) {
            return List.of(new Text(content.textValue()));
        }
        if (!content.isArray()) {
            throw refused(path, content, "a string or an array of text and image blocks");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            ObjectNode block = object(content.get(i), path + "[" + i + "]");
            ContentPart part = block(block, path + "[" + i + "]");
            if (!(part instanceof Text) && !(part instanceof Image)) {
                throw refused(path + "[" + i + "].type", block.get("type"), "text or image in a tool result");
            }
            parts.add(part);
        }
        return parts;
    }

    private static List<ContentPart> texts(JsonNode system, String path) {
        if (system.isTextual()) {
            return List.of(new Text(system.textValue()));
        }
        if (!system.isArray()) {
            throw refused(path, system, "a string or an array of text blocks");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < system.size(); i++) {
            String blockPath = path + "[" + i + "]";
            ObjectNode block = object(system.get(i), blockPath);
            if (!"text".equals(block.path("type").asText())) {
                throw refused(blockPath + ".type", block.get("type"), "text");
            }
            parts.add(new Text(text(block, "text", blockPath + ".text"), AnthropicCacheControl.read(block, blockPath)));
        }
        return parts;
    }

    private static List<Tool> tools(JsonNode tools) {
        if (!present(tools)) {
            return List.of();
        }
        if (!tools.isArray()) {
            throw refused("tools", tools, "an array of tools");
        }
        List<Tool> decoded = new ArrayList<>();
        for (int i = 0; i < tools.size(); i++) {
            String path = "tools[" + i + "]";
            ObjectNode tool = object(tools.get(i), path);
            if (tool.has("type") && !"custom".equals(tool.path("type").asText())) {
                throw refused(path + ".type", tool.get("type"), "custom (Anthropic's server tools cannot be sent to another vendor)");
            }
            decoded.add(new Tool(text(tool, "name", path + ".name"),
                    tool.path("description").isTextual() ? tool.get("description").textValue() : null,
                    object(tool.get("input_schema"), path + ".input_schema").deepCopy(), null,
                    AnthropicCacheControl.read(tool, path)));
        }
        return decoded;
    }

    private static ToolChoice toolChoice(JsonNode choice) {
        if (!present(choice)) {
            return null;
        }
        ObjectNode object = object(choice, "tool_choice");
        return switch (text(object, "type", "tool_choice.type")) {
            case "auto" -> ToolChoice.AUTO;
            case "none" -> ToolChoice.NONE;
            case "any" -> ToolChoice.REQUIRED;
            case "tool" -> ToolChoice.tool(text(object, "name", "tool_choice.name"));
            default -> throw refused("tool_choice.type", object.get("type"), "auto, none, any or tool");
        };
    }

    private static Sampling sampling(ObjectNode body) {
        JsonNode max = body.get("max_tokens");
        if (!present(max) || !max.canConvertToInt() || !max.isIntegralNumber() || max.intValue() < 1) {
            throw refused("max_tokens", max, "a whole number >= 1");
        }
        List<String> stops = new ArrayList<>();
        JsonNode sequences = body.get("stop_sequences");
        if (present(sequences)) {
            for (int i = 0; i < sequences.size(); i++) {
                if (!sequences.get(i).isTextual()) {
                    throw refused("stop_sequences[" + i + "]", sequences.get(i), "a string");
                }
                stops.add(sequences.get(i).textValue());
            }
        }
        return new Sampling(max.intValue(), number(body, "temperature"), number(body, "top_p"), stops);
    }

    private static Double number(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (!present(value)) {
            return null;
        }
        if (!value.isNumber() || value.doubleValue() < 0) {
            throw refused(field, value, "a number >= 0");
        }
        return value.doubleValue();
    }

    private static boolean present(JsonNode value) {
        return value != null && !value.isNull() && !value.isMissingNode();
    }

    private static ObjectNode object(JsonNode value, String path) {
        if (value instanceof ObjectNode object) {
            return object;
        }
        throw refused(path, value, "an object");
    }

    private static String text(JsonNode parent, String field, String path) {
        JsonNode value = parent.get(field);
        if (value == null || !value.isTextual()) {
            throw refused(path, value, "a string");
        }
        return value.textValue();
    }

    private static IllegalArgumentException refused(String path, JsonNode value, String expected) {
        return new IllegalArgumentException(path + ": " + (value == null ? "missing" : AnthropicAnswers.shorten(value.toString()))
                + " (expected: " + expected + ")");
    }
}
