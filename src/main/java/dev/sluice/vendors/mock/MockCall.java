package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.openai.mock.ResponsesMockCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The parts of a model call's JSON body that the mock's behaviour depends on. The prompt
 * is read as plain texts, whichever shape carried it: chat {@code messages} (string or
 * content-part arrays, {@code tool} messages included), a completion {@code prompt} or an
 * embeddings {@code input} (a string or an array of strings). {@link ResponsesMockCall} reads a
 * Responses API call into the same shape, so the modes and reply texts are shared.
 *
 * @param model          the Azure deployment, else the body's {@code model}
 * @param stream         the caller asked for server-sent events (never for embeddings)
 * @param includeUsage   {@code stream_options.include_usage}: a usage chunk ends the stream
 * @param texts          every prompt text, in order
 * @param lastUserText   the text the mock echoes: the last user message, or the last prompt
 * @param promptChars    the characters of all texts together
 * @param toolToCall     the function tool a chat calls: the one {@code tool_choice} names, else
 *                       the first function tool; null when none is given, {@code tool_choice}
 *                       is {@code "none"}, or the messages end with tool results
 * @param toolResultText the text of the {@code tool} messages the chat ends with, joined; null
 *                       when its last message is not a tool message
 */
public record MockCall(
        MockRoute.Kind kind,
        String model,
        boolean stream,
        boolean includeUsage,
        List<String> texts,
        String lastUserText,
        int promptChars,
        String toolToCall,
        String toolResultText) {

    /** The model named in replies when the request names none. */
    public static final String UNNAMED_MODEL = "mock-model";

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
        String toolResult = route.kind() == MockRoute.Kind.CHAT ? trailingToolResults(body.path("messages")) : null;
        String tool = route.kind() == MockRoute.Kind.CHAT && toolResult == null ? toolToCall(body, named -> named.path("function")) : null;
        return new MockCall(route.kind(), model, stream, includeUsage, List.copyOf(texts), lastUserText, promptChars,
                tool, toolResult);
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

    /**
     * The function tool to call, read from {@code tools} and {@code tool_choice}; null when
     * none is to be called.
     *
     * @param function where a tool or a forced choice keeps its {@code name}: under
     *                 {@code function} in a chat body, at its top in a Responses body
     */
    public static String toolToCall(JsonNode body, UnaryOperator<JsonNode> function) {
        JsonNode choice = body.path("tool_choice");
        if (choice.isTextual() && "none".equals(choice.textValue())) {
            return null;
        }
        for (JsonNode tool : body.path("tools")) {
            if ("function".equals(tool.path("type").asText())) {
                return "function".equals(choice.path("type").asText())
                        ? function.apply(choice).path("name").asText()
                        : function.apply(tool).path("name").asText();
            }
        }
        return null;
    }

    /** The texts of the {@code tool} messages that end the chat, joined in order; null when the last message is no tool message. */
    private static String trailingToolResults(JsonNode messages) {
        if (!messages.isArray()) {
            return null;
        }
        int first = messages.size();
        while (first > 0 && "tool".equals(messages.get(first - 1).path("role").asText())) {
            first--;
        }
        if (first == messages.size()) {
            return null;
        }
        StringBuilder results = new StringBuilder();
        for (int i = first; i < messages.size(); i++) {
            results.append(contentText(messages.get(i).path("content")));
        }
        return results.toString();
    }

    /**
     * The text of a message's content, or of a Responses item's content or output: a string,
     * or an array of parts whose {@code text}s count.
     */
    public static String contentText(JsonNode content) {
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
