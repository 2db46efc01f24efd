package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.optionalText;
import static dev.sluice.model.WireFields.path;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pieces of OpenAI's chat messages that both requests and answers carry: {@code content}
 * as a string or an array of {@code text} / {@code image_url} parts, {@code tool_calls}, and
 * reasoning as OpenAI-compatible servers send it ({@code reasoning_content}, and LiteLLM's
 * {@code thinking_blocks}, which keep Anthropic's signatures).
 */
final class OpenAiContent {
    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+);base64,(.*)", Pattern.DOTALL);

    private OpenAiContent() {}

    /** {@code content} as a string or an array of parts; images only when {@code images} is true. */
    static List<ContentPart> decodeParts(JsonNode content, String path, boolean images) {
        if (content != null && content.isTextual()) {
            return List.of(new Text(content.textValue()));
        }
        if (absent(content) || !content.isArray()) {
            throw refused(path, content, "a string or an array of content parts");
        }
        List<ContentPart> parts = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            String partPath = path(path, i);
            ObjectNode part = object(content.get(i), partPath);
            String type = text(part, "type", partPath);
            if (type.equals("text")) {
                parts.add(new Text(text(part, "text", partPath), OpenAiCacheControl.read(part, partPath)));
            } else if (type.equals("image_url") && images) {
                parts.add(image(object(part.get("image_url"), path(partPath, "image_url")), path(partPath, "image_url"))
                        .withCache(OpenAiCacheControl.read(part, partPath)));
            } else {
                throw refused(path(partPath, "type"), part.get("type"), images ? "text or image_url" : "text");
            }
        }
        return parts;
    }

    private static Image image(ObjectNode imageUrl, String path) {
        String url = text(imageUrl, "url", path);
        String detail = optionalText(imageUrl, "detail", path);
        Matcher data = DATA_URL.matcher(url);
        return data.matches() ? Image.inline(data.group(1), data.group(2), detail) : Image.atUrl(url, detail);
    }

    /**
     * One text part without a cache breakpoint as a string, anything else as an array of parts; images only when
     * {@code images} is true (OpenAI takes them in user messages alone). {@code where} names
     * the parts in refusals.
     */
    static JsonNode encodeParts(List<ContentPart> parts, String where, boolean images) {
        if (parts.size() == 1 && parts.get(0) instanceof Text text && text.cache() == null) {
            return NODES.textNode(text.text());
        }
        ArrayNode array = NODES.arrayNode();
        for (int i = 0; i < parts.size(); i++) {
            ObjectNode part = array.addObject();
            switch (parts.get(i)) {
                case Text text -> {
                    part.put("type", "text").put("text", text.text());
                    OpenAiCacheControl.write(text.cache(), part);
                }
                case Image image when images -> {
                    ObjectNode url = part.put("type", "image_url").putObject("image_url");
                    url.put("url", image.inline() ? "data:" + image.mediaType() + ";base64," + image.data() : image.url());
                    if (image.detail() != null) {
                        url.put("detail", image.detail());
                    }
                    OpenAiCacheControl.write(image.cache(), part);
                }
                default -> throw new IllegalArgumentException(path(where, i) + ": " + parts.get(i).getClass().getSimpleName()
                        + (images ? " (expected: text or image)" : " (expected: text; OpenAI takes images in user messages only)"));
            }
        }
        return array;
    }

    /** An assistant message's or answer's parts: reasoning, then content (or a refusal), then tool calls. */
    static List<ContentPart> decodeAssistant(ObjectNode message, String path) {
        List<ContentPart> parts = new ArrayList<>(decodeReasoning(message, path));
        JsonNode content = message.get("content");
        if (content != null && content.isArray()) {
            parts.addAll(decodeParts(content, path(path, "content"), false));
        } else {
            String text = optionalText(message, "content", path);
            if (text != null) {
                parts.add(new Text(text));
            }
        }
        String refusal = optionalText(message, "refusal", path);
        if (refusal != null) {
            parts.add(new Text(refusal));
        }
        JsonNode calls = message.get("tool_calls");
        if (!absent(calls)) {
            ArrayNode array = array(calls, path(path, "tool_calls"));
            for (int i = 0; i < array.size(); i++) {
                parts.add(toolCall(array.get(i), path(path(path, "tool_calls"), i)));
            }
        }
        return parts;
    }

    private static ToolCall toolCall(JsonNode node, String path) {
        ObjectNode call = object(node, path);
        String type = optionalText(call, "type", path);
        if (type != null && !type.equals("function")) {
            throw refused(path(path, "type"), call.get("type"), "function");
        }
        String functionPath = path(path, "function");
        ObjectNode function = object(call.get("function"), functionPath);
        String name = text(function, "name", functionPath);
        if (name.isBlank()) {
            throw refused(path(functionPath, "name"), function.get("name"), "a non-blank string");
        }
        return new ToolCall(text(call, "id", path), name, text(function, "arguments", functionPath));
    }

    /** Reasoning from {@code thinking_blocks} when present (it keeps signatures), else from {@code reasoning_content}. */
    static List<Reasoning> decodeReasoning(ObjectNode message, String path) {
        JsonNode blocks = message.get("thinking_blocks");
        if (absent(blocks)) {
            String text = optionalText(message, "reasoning_content", path);
            return text == null ? List.of() : List.of(Reasoning.plain(text));
        }
        ArrayNode array = array(blocks, path(path, "thinking_blocks"));
        List<Reasoning> reasoning = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            String blockPath = path(path(path, "thinking_blocks"), i);
            ObjectNode block = object(array.get(i), blockPath);
            String type = text(block, "type", blockPath);
            switch (type) {
                case "thinking" -> reasoning.add(new Reasoning(text(block, "thinking", blockPath),
                        optionalText(block, "signature", blockPath), false));
                case "redacted_thinking" -> reasoning.add(new Reasoning(text(block, "data", blockPath), null, true));
                default -> throw refused(path(blockPath, "type"), block.get("type"), "thinking or redacted_thinking");
            }
        }
        return reasoning;
    }

    /**
     * Writes reasoning as {@code reasoning_content} (the readable text, joined) and, when any
     * part is signed or redacted, also as {@code thinking_blocks}, so a signature reaches the
     * caller and comes back unchanged.
     */
    static void encodeReasoning(List<Reasoning> reasoning, ObjectNode message) {
        if (reasoning.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        boolean readable = false;
        boolean blocks = false;
        for (Reasoning part : reasoning) {
            if (!part.redacted()) {
                text.append(part.text());
                readable = true;
            }
            blocks |= part.redacted() || part.signature() != null;
        }
        if (readable) {
            message.put("reasoning_content", text.toString());
        }
        if (blocks) {
            ArrayNode array = message.putArray("thinking_blocks");
            reasoning.forEach(part -> array.add(thinkingBlock(part.text(), part.signature(), part.redacted())));
        }
    }

    static ObjectNode thinkingBlock(String text, String signature, boolean redacted) {
        if (redacted) {
            return NODES.objectNode().put("type", "redacted_thinking").put("data", text);
        }
        ObjectNode block = NODES.objectNode().put("type", "thinking").put("thinking", text);
        return signature == null ? block : block.put("signature", signature);
    }

    static ArrayNode encodeToolCalls(List<ToolCall> calls) {
        ArrayNode array = NODES.arrayNode();
        for (ToolCall call : calls) {
            ObjectNode node = array.addObject().put("id", call.id()).put("type", "function");
            node.putObject("function").put("name", call.name()).put("arguments", call.arguments());
        }
        return array;
    }
}
