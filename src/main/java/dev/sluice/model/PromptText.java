package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The texts of a request a {@code pre_call} guardrail reads: every message's {@code content}
 * (a string, or the {@code text} of each part of a list) for chat, {@code prompt} for
 * completions, {@code input} for embeddings. Each text is checked on its own, so words from
 * two messages never run together into a match. Token arrays and non-text parts (images,
 * audio) have no text to check.
 */
public final class PromptText {
    private PromptText() {}

    public static List<String> of(ObjectNode body) {
        List<String> texts = new ArrayList<>();
        JsonNode messages = body.path("messages");
        for (JsonNode message : messages.isArray() ? messages : List.<JsonNode>of()) {
            content(message.path("content"), texts);
        }
        strings(body.path("prompt"), texts);
        strings(body.path("input"), texts);
        return texts;
    }

    /** A chat {@code content}: a string, or a list of parts of which those with text count. */
    static void content(JsonNode content, List<String> texts) {
        if (content.isTextual()) {
            texts.add(content.textValue());
            return;
        }
        if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.path("text").isTextual()) {
                    texts.add(part.path("text").textValue());
                }
            }
        }
    }

    /** A string or a list of strings; token ids (numbers, lists of numbers) are skipped. */
    private static void strings(JsonNode value, List<String> texts) {
        if (value.isTextual()) {
            texts.add(value.textValue());
            return;
        }
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (item.isTextual()) {
                    texts.add(item.textValue());
                }
            }
        }
    }
}
