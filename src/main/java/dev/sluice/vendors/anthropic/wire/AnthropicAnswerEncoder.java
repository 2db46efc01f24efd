package dev.sluice.vendors.anthropic.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;

/**
 * A {@link ChatAnswer} as a Messages API answer, for an entry API that answers in Anthropic's
 * shape: the reverse of {@link AnthropicAnswers}. The usage is split back into Anthropic's
 * counts, {@code input_tokens} leaving out the cache reads and writes.
 */
final class AnthropicAnswerEncoder {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AnthropicAnswerEncoder() {}

    static ObjectNode encode(ChatAnswer answer) {
        ObjectNode body = NODES.objectNode().put("id", answer.id()).put("type", "message").put("role", "assistant")
                .put("model", answer.model());
        ArrayNode content = body.putArray("content");
        for (int i = 0; i < answer.content().size(); i++) {
            ContentPart part = answer.content().get(i);
            switch (part) {
                case Text text -> content.add(AnthropicTurns.text(text.text()));
                case Reasoning reasoning when reasoning.redacted() ->
                        content.addObject().put("type", "redacted_thinking").put("data", reasoning.text());
                case Reasoning reasoning -> {
                    ObjectNode block = content.addObject().put("type", "thinking").put("thinking", reasoning.text());
                    block.put("signature", reasoning.signature() == null ? "" : reasoning.signature());
                }
                case ToolCall call -> content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                        .set("input", AnthropicToolInput.parse(call.arguments(), "content[" + i + "].arguments"));
                default -> throw new IllegalArgumentException("content[" + i + "]: " + part.getClass().getSimpleName()
                        + " (expected: text, reasoning or tool calls in an Anthropic answer)");
            }
        }
        body.put("stop_reason", stopReason(answer.finishReason())).putNull("stop_sequence");
        body.set("usage", usage(answer.usage()));
        return body;
    }

    static String stopReason(FinishReason reason) {
        return switch (reason.kind()) {
            case STOP -> "end_turn";
            case LENGTH -> "max_tokens";
            case TOOL_CALLS -> "tool_use";
            case CONTENT_FILTER -> "refusal";
            case OTHER -> reason.vendorReason();
        };
    }

    static ObjectNode usage(Usage usage) {
        long input = Math.max(0, usage.promptTokens() - usage.cachedPromptTokens() - usage.cacheCreationTokens());
        return NODES.objectNode().put("input_tokens", input).put("cache_creation_input_tokens", usage.cacheCreationTokens())
                .put("cache_read_input_tokens", usage.cachedPromptTokens()).put("output_tokens", usage.completionTokens());
    }
}
