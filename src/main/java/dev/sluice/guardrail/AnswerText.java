package dev.sluice.guardrail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text of a model's answer, for a {@code post_call} guardrail: from a whole chat or
 * completions body ({@code choices[].message.content}, {@code choices[].text}), or from the
 * server-sent events of a streamed one ({@code choices[].delta.content},
 * {@code choices[].text}). With several choices, each choice's text is one line of the
 * result, so text from two choices never runs together into a match.
 */
public final class AnswerText {
    private static final String DONE = "[DONE]";

    private AnswerText() {}

    /** The answer text of a chat or completions response body; empty when it has none. */
    public static String ofBody(JsonNode body) {
        List<String> texts = new ArrayList<>();
        for (JsonNode choice : choices(body)) {
            List<String> parts = new ArrayList<>();
            PromptText.content(choice.path("message").path("content"), parts);
            if (choice.path("text").isTextual()) {
                parts.add(choice.path("text").textValue());
            }
            texts.add(String.join("", parts));
        }
        return String.join("\n", texts);
    }

    /**
     * The answer text of a streamed response, from its events in order. Each element holds
     * one or more whole events as they arrived ({@code data: {...}} lines, blank-line
     * separated); {@code data: [DONE]}, comments and events that are not JSON carry no text.
     */
    public static String ofEvents(Iterable<? extends CharSequence> events) {
        Map<Integer, StringBuilder> byChoice = new TreeMap<>();
        for (CharSequence chunk : events) {
            StringBuilder data = new StringBuilder();
            for (String line : chunk.toString().split("\r?\n", -1)) {
                if (line.isEmpty()) {
                    delta(data, byChoice);
                    data.setLength(0);
                } else if (line.startsWith("data:")) {
                    String value = line.startsWith("data: ") ? line.substring(6) : line.substring(5);
                    data.append(data.isEmpty() ? "" : "\n").append(value);
                }
            }
            delta(data, byChoice);
        }
        return String.join("\n", byChoice.values());
    }

    /** Like {@link #ofEvents(Iterable)}, for the events as one text. */
    public static String ofEvents(CharSequence events) {
        return ofEvents(List.of(events));
    }

    /** Adds the text one event's data carries to its choice's text. */
    private static void delta(CharSequence data, Map<Integer, StringBuilder> byChoice) {
        if (data.isEmpty() || DONE.contentEquals(data)) {
            return;
        }
        JsonNode event;
        try {
            event = Json.parse(data.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return;
        }
        int position = 0;
        for (JsonNode choice : choices(event)) {
            int index = choice.path("index").canConvertToInt() ? choice.path("index").intValue() : position;
            position++;
            List<String> parts = new ArrayList<>();
            PromptText.content(choice.path("delta").path("content"), parts);
            if (choice.path("text").isTextual()) {
                parts.add(choice.path("text").textValue());
            }
            if (!parts.isEmpty()) {
                StringBuilder text = byChoice.computeIfAbsent(index, i -> new StringBuilder());
                parts.forEach(text::append);
            }
        }
    }

    private static Iterable<JsonNode> choices(JsonNode body) {
        JsonNode choices = body == null ? null : body.path("choices");
        return choices != null && choices.isArray() ? choices : List.of();
    }
}
