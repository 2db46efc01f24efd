package dev.sluice.vendors.bedrock.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * A Converse answer ({@code output.message}, {@code stopReason}, {@code usage}) as a
 * {@link ChatAnswer}. Converse gives an answer no id; the caller supplies one. A call of the
 * tool that carries a {@code response_format} answer is the answer's text.
 */
final class ConverseAnswers {
    private ConverseAnswers() {}

    static ChatAnswer decode(JsonNode body, String id, String model, String responseTool) {
        JsonNode content = body.path("output").path("message").path("content");
        if (!body.isObject() || !content.isArray()) {
            throw new IllegalArgumentException("output.message.content: " + content + " (expected: an array of content blocks)");
        }
        List<ContentPart> parts = new ArrayList<>();
        boolean forced = false;
        boolean otherTools = false;
        for (JsonNode block : content) {
            if (block.has("text")) {
                parts.add(new Text(block.path("text").asText()));
            } else if (block.has("toolUse")) {
                JsonNode use = block.get("toolUse");
                String name = use.path("name").asText();
                if (name.equals(responseTool)) {
                    forced = true;
                    parts.add(new Text(ConverseJson.write(use.path("input"))));
                } else {
                    otherTools = true;
                    parts.add(new ToolCall(use.path("toolUseId").asText(), name, ConverseJson.write(use.path("input"))));
                }
            } else if (block.has("reasoningContent")) {
                parts.add(reasoning(block.get("reasoningContent")));
            }
            // Other blocks (citations, documents echoed back) have no place in an OpenAI answer.
        }
        String stopReason = body.path("stopReason").asText("end_turn");
        return new ChatAnswer(id, model, parts, ConverseUsage.finish(stopReason, forced && !otherTools),
                ConverseUsage.usage(body.get("usage")));
    }

    private static Reasoning reasoning(JsonNode reasoning) {
        if (reasoning.has("redactedContent")) {
            return new Reasoning(reasoning.path("redactedContent").asText(), null, true);
        }
        JsonNode text = reasoning.path("reasoningText");
        return new Reasoning(text.path("text").asText(""), text.path("signature").asText(null), false);
    }
}
