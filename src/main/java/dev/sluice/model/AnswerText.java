package dev.sluice.model;

import com.fasterxml.jackson.databind.JsonNode;
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
            String text = chunk.toString();
            StringBuilder data = new StringBuilder();
            // Line by line, by hand: a regular expression split costs more than the events' JSON.
            int start = 0;
            while (start <= text.length()) {
                int newline = text.indexOf('\n', start);
                int end = newline < 0 ? text.length() : newline;
                int lineEnd = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
                if (lineEnd == start) {
                    delta(data, byChoice);
                    data.setLength(0);
                } else if (text.startsWith("data:", start)) {
                    int value = text.startsWith("data: ", start) ? start + 6 : start + 5;
                    data.append(data.isEmpty() ? "" : "\n").append(text, value, lineEnd);
                }
                if (newline < 0) {
                    break;
                }
                start = newline + 1;
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
        DeltaText.add(data.toString(), byChoice);
    }

    private static Iterable<JsonNode> choices(JsonNode body) {
        JsonNode choices = body == null ? null : body.path("choices");
        return choices != null && choices.isArray() ? choices : List.of();
    }
}
