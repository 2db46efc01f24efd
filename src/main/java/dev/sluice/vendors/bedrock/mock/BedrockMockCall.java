package dev.sluice.vendors.bedrock.mock;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Bedrock Runtime call the mock received: which action on which model, and the prompt's
 * texts, whichever body carried them (Converse's {@code system} and {@code messages}, the
 * Messages API's a Claude model takes through InvokeModel, Titan's {@code inputText}, Cohere's
 * {@code texts}).
 *
 * @param action       {@code converse}, {@code converse-stream}, {@code invoke} or {@code invoke-with-response-stream}
 * @param modelId      the model id from the path, decoded
 * @param texts        every prompt text, in order
 * @param lastUserText the text the mock echoes
 * @param forcedTool   the tool the request makes the model call ({@code toolChoice} {@code tool} or
 *                     {@code any}: the first tool), or null
 * @param cached       whether the body holds a {@code cachePoint} block, asking for the prompt before it to be cached
 */
record BedrockMockCall(String action, String modelId, List<String> texts, String lastUserText, String forcedTool,
        boolean cached) {

    static final String CONVERSE = "converse";
    static final String CONVERSE_STREAM = "converse-stream";
    static final String INVOKE = "invoke";
    static final String INVOKE_STREAM = "invoke-with-response-stream";

    /** The call a path names, or null when it is not {@code /model/ID/ACTION} with an action the mock serves. */
    static BedrockMockCall route(String path) {
        if (!path.startsWith("/model/")) {
            return null;
        }
        String rest = path.substring("/model/".length());
        int slash = rest.lastIndexOf('/');
        if (slash <= 0) {
            return null;
        }
        String action = rest.substring(slash + 1);
        if (!List.of(CONVERSE, CONVERSE_STREAM, INVOKE, INVOKE_STREAM).contains(action)) {
            return null;
        }
        return new BedrockMockCall(action, URLDecoder.decode(rest.substring(0, slash), StandardCharsets.UTF_8), List.of(), "", null, false);
    }

    BedrockMockCall read(JsonNode body) {
        List<String> texts = new ArrayList<>();
        String lastUser = "";
        if (body.path("system").isTextual()) {
            texts.add(body.path("system").textValue());
        }
        for (JsonNode block : body.path("system")) {
            texts.add(block.path("text").asText(""));
        }
        for (JsonNode message : body.path("messages")) {
            StringBuilder text = new StringBuilder(message.path("content").asText(""));
            for (JsonNode block : message.path("content")) {
                text.append(block.path("text").asText(""));
                for (JsonNode inner : block.path("toolResult").path("content")) {
                    text.append(inner.path("text").asText(""));
                }
                // A Messages API tool_result holds a string or text blocks.
                text.append(block.path("content").asText(""));
                for (JsonNode inner : block.path("content")) {
                    text.append(inner.path("text").asText(""));
                }
            }
            texts.add(text.toString());
            if ("user".equals(message.path("role").asText())) {
                lastUser = text.toString();
            }
        }
        if (body.path("inputText").isTextual()) {
            texts.add(body.get("inputText").asText());
            lastUser = body.get("inputText").asText();
        }
        for (JsonNode text : body.path("texts")) {
            texts.add(text.asText(""));
            lastUser = text.asText("");
        }
        return new BedrockMockCall(action, modelId, List.copyOf(texts), lastUser, forcedTool(body.path("toolConfig")),
                body.toString().contains("\"cachePoint\""));
    }

    private static String forcedTool(JsonNode toolConfig) {
        JsonNode choice = toolConfig.path("toolChoice");
        if (choice.path("tool").has("name")) {
            return choice.path("tool").path("name").asText();
        }
        if (choice.has("any")) {
            return toolConfig.path("tools").path(0).path("toolSpec").path("name").asText(null);
        }
        return null;
    }

    boolean stream() {
        return action.equals(CONVERSE_STREAM) || action.equals(INVOKE_STREAM);
    }

    /** An InvokeModel call of an Anthropic Claude model, whose body is the Messages API's. */
    boolean claude() {
        return action.startsWith(INVOKE) && modelId.toLowerCase(Locale.ROOT).contains("anthropic.claude");
    }

    boolean embeddings() {
        return action.equals(INVOKE) && !claude();
    }

    boolean cohere() {
        return modelId.toLowerCase(Locale.ROOT).contains("cohere");
    }

    int promptChars() {
        return texts.stream().mapToInt(String::length).sum();
    }

    boolean mentions(String word) {
        String needle = word.toLowerCase(Locale.ROOT);
        return texts.stream().anyMatch(text -> text.toLowerCase(Locale.ROOT).contains(needle));
    }
}
