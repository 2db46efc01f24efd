package dev.sluice.vendors.gemini.mock;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parts of a Gemini call's body that the mock's behaviour depends on: every prompt text
 * (from {@code contents}, {@code systemInstruction}, embedding requests or Vertex
 * {@code instances}), the text it echoes, and the function it should call, if any.
 *
 * @param lastUserText the last user turn's text, or what its function responses said
 * @param callFunction the declaration of the function to call (a user turn ends the
 *                     conversation and tools were declared), or null to answer in text
 */
record GeminiMockCall(GeminiMockRoute route, List<String> texts, String lastUserText, JsonNode callFunction, int promptChars) {

    static GeminiMockCall of(GeminiMockRoute route, JsonNode body) {
        List<String> texts = new ArrayList<>();
        body.path("systemInstruction").path("parts").forEach(p -> addText(p, texts));
        String lastUser = "";
        boolean answeredFunction = false;
        for (JsonNode content : body.path("contents")) {
            StringBuilder said = new StringBuilder();
            boolean functionResponses = false;
            for (JsonNode part : content.path("parts")) {
                addText(part, texts);
                said.append(part.path("text").asText(""));
                if (part.has("functionResponse")) {
                    functionResponses = true;
                    said.append(part.get("functionResponse").path("response").path("content").asText(""));
                }
            }
            if (!"model".equals(content.path("role").asText("user"))) {
                lastUser = said.toString();
                answeredFunction = functionResponses;
            }
        }
        for (JsonNode request : body.path("requests")) {
            request.path("content").path("parts").forEach(p -> addText(p, texts));
        }
        body.path("content").path("parts").forEach(p -> addText(p, texts));
        body.path("instances").forEach(i -> texts.add(i.path("content").asText("")));
        if (lastUser.isEmpty() && !texts.isEmpty()) {
            lastUser = texts.getLast();
        }
        JsonNode function = answeredFunction ? null : functionToCall(body);
        return new GeminiMockCall(route, List.copyOf(texts), lastUser, function, texts.stream().mapToInt(String::length).sum());
    }

    /** The allowed function when {@code ANY} names some, else the first declared; none under {@code NONE}. */
    private static JsonNode functionToCall(JsonNode body) {
        JsonNode config = body.path("toolConfig").path("functionCallingConfig");
        if ("NONE".equals(config.path("mode").asText())) {
            return null;
        }
        String allowed = config.path("allowedFunctionNames").path(0).asText(null);
        for (JsonNode tool : body.path("tools")) {
            for (JsonNode declaration : tool.path("functionDeclarations")) {
                if (allowed == null || allowed.equals(declaration.path("name").asText())) {
                    return declaration;
                }
            }
        }
        return null;
    }

    boolean mentions(String word) {
        String needle = word.toLowerCase(Locale.ROOT);
        return texts.stream().anyMatch(text -> text.toLowerCase(Locale.ROOT).contains(needle));
    }

    private static void addText(JsonNode part, List<String> texts) {
        if (part.path("text").isTextual()) {
            texts.add(part.get("text").textValue());
        }
    }
}
