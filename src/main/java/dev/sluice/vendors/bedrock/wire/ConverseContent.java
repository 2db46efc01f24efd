package dev.sluice.vendors.bedrock.wire;

import static dev.sluice.vendors.bedrock.wire.ConverseJson.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import java.util.Locale;
import java.util.Map;

/**
 * One internal content part as a Converse {@code ContentBlock}: {@code {text}}, {@code {image}},
 * {@code {toolUse}}, {@code {toolResult}} or {@code {reasoningContent}}. Each refusal names the
 * part's place in the request.
 */
final class ConverseContent {
    /** The image formats Converse takes, by media type. */
    private static final Map<String, String> IMAGE_FORMATS = Map.of(
            "image/png", "png", "image/jpeg", "jpeg", "image/jpg", "jpeg", "image/gif", "gif", "image/webp", "webp");

    private ConverseContent() {}

    /**
     * The block for {@code part}, or null for an empty text (Converse refuses blank text blocks)
     * and for reasoning that is neither signed nor redacted (Claude on Bedrock refuses thinking
     * without its signature, so it is dropped, as on the Anthropic path).
     */
    static ObjectNode block(ContentPart part, String path) {
        return switch (part) {
            case Text text -> text.text().isEmpty() ? null : NODES.objectNode().put("text", text.text());
            case Image image -> NODES.objectNode().set("image", image(image, path));
            case ToolCall call -> NODES.objectNode().set("toolUse", toolUse(call, path));
            case ToolResult result -> NODES.objectNode().set("toolResult", toolResult(result, path));
            case Reasoning reasoning -> reasoning.redacted() || reasoning.signature() != null
                    ? NODES.objectNode().set("reasoningContent", reasoning(reasoning)) : null;
        };
    }

    /**
     * Converse takes images only as bytes: it cannot fetch a URL, and Sluice does not fetch one on
     * the caller's behalf (a gateway that fetches what callers name can be made to reach inside
     * its own network), so a URL is refused and the caller sends the image as a data URL.
     */
    private static ObjectNode image(Image image, String path) {
        if (!image.inline()) {
            throw new IllegalArgumentException(path + ".image_url: " + shorten(image.url())
                    + " (expected: a data URL such as data:image/png;base64,...; Bedrock takes images only as bytes"
                    + " and Sluice does not fetch image URLs)");
        }
        String format = IMAGE_FORMATS.get(image.mediaType().toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new IllegalArgumentException(path + ".image_url: an image of type " + image.mediaType()
                    + " (expected: image/png, image/jpeg, image/gif or image/webp, the formats Bedrock takes)");
        }
        ObjectNode node = NODES.objectNode().put("format", format);
        // A blob in Converse's JSON is its base64 text, which is what a data URL holds.
        node.putObject("source").put("bytes", image.data());
        return node;
    }

    private static ObjectNode toolUse(ToolCall call, String path) {
        ObjectNode node = NODES.objectNode().put("toolUseId", call.id()).put("name", call.name());
        node.set("input", arguments(call.arguments(), path));
        return node;
    }

    /** Converse takes a tool call's input as a JSON object, not as text; no arguments is {@code {}}. */
    static JsonNode arguments(String arguments, String path) {
        if (arguments.isBlank()) {
            return NODES.objectNode();
        }
        JsonNode input = ConverseJson.parseOrNull(arguments);
        if (input == null || !input.isObject()) {
            throw new IllegalArgumentException(path + ".function.arguments: " + shorten(arguments)
                    + " (expected: a JSON object as text; Bedrock takes tool input as an object)");
        }
        return input;
    }

    private static ObjectNode toolResult(ToolResult result, String path) {
        ObjectNode node = NODES.objectNode().put("toolUseId", result.toolCallId());
        ArrayNode content = node.putArray("content");
        for (int i = 0; i < result.content().size(); i++) {
            ObjectNode block = block(result.content().get(i), path + ".content[" + i + "]");
            if (block != null) {
                content.add(block);
            }
        }
        if (content.isEmpty()) {
            // Converse wants at least one block; an empty result is an empty text.
            content.addObject().put("text", "");
        }
        if (result.isError()) {
            node.put("status", "error");
        }
        return node;
    }

    private static ObjectNode reasoning(Reasoning reasoning) {
        ObjectNode node = NODES.objectNode();
        if (reasoning.redacted()) {
            node.put("redactedContent", reasoning.text());
            return node;
        }
        node.putObject("reasoningText").put("text", reasoning.text()).put("signature", reasoning.signature());
        return node;
    }

    private static String shorten(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}
