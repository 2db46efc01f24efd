package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import java.util.ArrayList;
import java.util.List;

/**
 * A Messages API answer ({@code type: message}) as a {@link ChatAnswer}. Text, thinking,
 * redacted thinking and tool use blocks are kept in order; blocks of Anthropic's server
 * tools, which OpenAI's answer has no place for, are left out. Under a structured output
 * asked as the forced {@code json_tool_call}, that call's input is the answer's text and
 * the answer stopped, as LiteLLM reads it.
 */
final class AnthropicAnswers {
    private AnthropicAnswers() {}

    static ChatAnswer decode(JsonNode answer, boolean jsonMode) {
        if (answer == null || !answer.isObject() || !"message".equals(answer.path("type").asText())) {
            throw new IllegalArgumentException("$: " + (answer == null ? "missing" : shorten(answer.toString()))
                    + " (expected: a Messages API answer of type message)");
        }
        JsonNode blocks = answer.path("content");
        if (!blocks.isArray()) {
            throw new IllegalArgumentException("content: " + shorten(blocks.toString()) + " (expected: an array of content blocks)");
        }
        List<ContentPart> parts = new ArrayList<>();
        boolean unwrapped = false;
        for (int i = 0; i < blocks.size(); i++) {
            JsonNode block = blocks.get(i);
            switch (block.path("type").asText()) {
                case "text" -> parts.add(new Text(block.path("text").asText("")));
                case "thinking" -> parts.add(new Reasoning(block.path("thinking").asText(""),
                        block.path("signature").isTextual() ? block.path("signature").textValue() : null, false));
                case "redacted_thinking" -> parts.add(new Reasoning(block.path("data").asText(""), null, true));
                case "tool_use" -> {
                    String arguments = AnthropicToolInput.text(block.get("input"));
                    if (jsonMode && AnthropicOpenAiParams.JSON_TOOL.equals(block.path("name").asText())) {
                        parts.add(new Text(arguments));
                        unwrapped = true;
                    } else {
                        parts.add(new ToolCall(required(block, "id", i), required(block, "name", i), arguments));
                    }
                }
                default -> { } // server tools' blocks: OpenAI's answer has no place for them
            }
        }
        FinishReason finish = AnthropicUsage.finish(answer.path("stop_reason").isTextual() ? answer.path("stop_reason").textValue() : null);
        if (unwrapped && parts.stream().noneMatch(ToolCall.class::isInstance)) {
            finish = FinishReason.STOP;
        }
        return new ChatAnswer(answer.path("id").asText(""), answer.path("model").asText(""), parts, finish,
                AnthropicUsage.decode(answer.get("usage")));
    }

    private static String required(JsonNode block, String field, int index) {
        JsonNode value = block.get(field);
        if (value == null || !value.isTextual() || value.textValue().isBlank()) {
            throw new IllegalArgumentException("content[" + index + "]." + field + ": " + (value == null ? "missing" : value)
                    + " (expected: a non-blank string)");
        }
        return value.textValue();
    }

    static String shorten(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
