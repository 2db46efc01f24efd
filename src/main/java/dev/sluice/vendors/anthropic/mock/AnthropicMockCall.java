package dev.sluice.vendors.anthropic.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.mock.MockCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts of a Messages API body ({@code POST /v1/messages}) that the Anthropic mock's
 * behaviour depends on. Prompt texts are the top-level {@code system} and every text block
 * (or string content) of {@code messages}, tool results included.
 *
 * @param model          the body's {@code model}
 * @param stream         the caller asked for server-sent events
 * @param texts          every prompt text, in order
 * @param lastUserText   the text the mock echoes: the last user turn's text
 * @param promptChars    the characters of all texts together
 * @param toolToCall     the tool the mock calls: the one {@code tool_choice} names, else the first
 *                       tool; null when none is given, {@code tool_choice} is {@code none}, or the
 *                       last user turn already answers a tool call
 * @param toolResultText the text of the last user turn's tool results, or null when it has none
 * @param thinking       whether extended thinking was asked ({@code thinking.type: enabled})
 * @param cached         whether any block asks for caching ({@code cache_control})
 */
public record AnthropicMockCall(String model, boolean stream, List<String> texts, String lastUserText, int promptChars,
        String toolToCall, String toolResultText, boolean thinking, boolean cached) {

    public static AnthropicMockCall of(JsonNode body) {
        List<String> texts = new ArrayList<>();
        readText(body.path("system"), texts);
        String lastUser = "";
        String toolResult = null;
        for (JsonNode message : body.path("messages")) {
            List<String> said = new ArrayList<>();
            String result = readTurn(message.path("content"), said);
            texts.addAll(said);
            if ("user".equals(message.path("role").asText())) {
                lastUser = String.join("", said);
                toolResult = result;
            }
        }
        boolean cached = body.toString().contains("\"cache_control\"");
        return new AnthropicMockCall(body.path("model").asText(MockCall.UNNAMED_MODEL), body.path("stream").asBoolean(false),
                List.copyOf(texts), lastUser, texts.stream().mapToInt(String::length).sum(),
                toolResult == null ? toolToCall(body) : null, toolResult,
                "enabled".equals(body.path("thinking").path("type").asText()), cached);
    }

    /** Whether any prompt text contains {@code word}, ignoring case. */
    boolean mentions(String word) {
        String needle = word.toLowerCase(Locale.ROOT);
        return texts.stream().anyMatch(text -> text.toLowerCase(Locale.ROOT).contains(needle));
    }

    private static String toolToCall(JsonNode body) {
        JsonNode tools = body.path("tools");
        JsonNode choice = body.path("tool_choice");
        if (!tools.isArray() || tools.isEmpty() || "none".equals(choice.path("type").asText())) {
            return null;
        }
        return "tool".equals(choice.path("type").asText()) ? choice.path("name").asText() : tools.get(0).path("name").asText();
    }

    /** Adds a turn's texts to {@code said}; returns its tool results' text, or null when it has none. */
    private static String readTurn(JsonNode content, List<String> said) {
        if (content.isTextual()) {
            said.add(content.textValue());
            return null;
        }
        StringBuilder results = null;
        for (JsonNode block : content) {
            if ("tool_result".equals(block.path("type").asText())) {
                List<String> resultTexts = new ArrayList<>();
                readText(block.path("content"), resultTexts);
                results = results == null ? new StringBuilder() : results;
                resultTexts.forEach(results::append);
                said.addAll(resultTexts);
            } else if ("text".equals(block.path("type").asText())) {
                said.add(block.path("text").asText(""));
            }
        }
        return results == null ? null : results.toString();
    }

    /** A string, or the text blocks of an array. */
    private static void readText(JsonNode value, List<String> texts) {
        if (value.isTextual()) {
            texts.add(value.textValue());
            return;
        }
        for (JsonNode block : value) {
            if ("text".equals(block.path("type").asText())) {
                texts.add(block.path("text").asText(""));
            }
        }
    }
}
