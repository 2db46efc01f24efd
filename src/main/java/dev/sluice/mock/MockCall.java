package dev.sluice.mock;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts of a model call's JSON body that the mock's behaviour depends on. The prompt
 * is read as plain texts, whichever shape carried it: chat {@code messages} (string or
 * content-part arrays), a completion {@code prompt} or an embeddings {@code input}
 * (a string or an array of strings).
 *
 * @param model        the Azure deployment, else the body's {@code model}
 * @param stream       the caller asked for server-sent events (never for embeddings)
 * @param includeUsage {@code stream_options.include_usage}: a usage chunk ends the stream
 * @param texts        every prompt text, in order
 * @param lastUserText the text the mock echoes: the last user message, or the last prompt
 * @param promptChars  the characters of all texts together
 */
record MockCall(
        MockRoute.Kind kind,
        String model,
        boolean stream,
        boolean includeUsage,
        List<String> texts,
        String lastUserText,
        int promptChars) {

    /** The model named in replies when the request names none. */
    static final String UNNAMED_MODEL = "mock-model";

    static MockCall of(MockRoute route, JsonNode body) {
        String model = route.deployment() != null
                ? route.deployment()
                : body.path("model").asText(UNNAMED_MODEL);
        boolean streamable = route.kind() != MockRoute.Kind.EMBEDDING;
        boolean stream = streamable && body.path("stream").asBoolean(false);
        boolean includeUsage = stream && body.path("stream_options").path("include_usage").asBoolean(false);
        List<String> texts = new ArrayList<>();
        String lastUserText = switch (route.kind()) {
            case CHAT -> readMessages(body.path("messages"), texts);
            case COMPLETION -> readStrings(body.path("prompt"), texts);
            case EMBEDDING -> readStrings(body.path("input"), texts);
            default -> throw new IllegalArgumentException("not a model call: " + route.kind());
        };
        int promptChars = texts.stream().mapToInt(String::length).sum();
        return new MockCall(route.kind(), model, stream, includeUsage, List.copyOf(texts), lastUserText, promptChars);
    }

    /** Whether any prompt text contains {@code word}, ignoring case. */
    boolean mentions(String word) {
        String needle = word.toLowerCase(Locale.ROOT);
        return texts.stream().anyMatch(text -> text.toLowerCase(Locale.ROOT).contains(needle));
    }

    /** Adds each message's text to {@code texts}; returns the last user message's text. */
    private static String readMessages(JsonNode messages, List<String> texts) {
        String lastUser = "";
        for (JsonNode message : messages) {
            String text = contentText(message.path("content"));
            texts.add(text);
            if ("user".equals(message.path("role").asText())) {
                lastUser = text;
            }
        }
        return lastUser;
    }

    /** A message content is a string or an array of parts, of which text parts count. */
    private static String contentText(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : content) {
            text.append(part.path("text").asText(""));
        }
        return text.toString();
    }

    /** Adds a string, or each string of an array, to {@code texts}; returns the last one. */
    private static String readStrings(JsonNode value, List<String> texts) {
        if (value.isTextual()) {
            texts.add(value.asText());
        } else {
            for (JsonNode item : value) {
                if (item.isTextual()) {
                    texts.add(item.asText());
                }
            }
        }
        return texts.isEmpty() ? "" : texts.get(texts.size() - 1);
    }
}
