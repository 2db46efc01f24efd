package dev.sluice.vendors.openai.wire;

import static dev.sluice.model.WireFields.NODES;
import static dev.sluice.model.WireFields.absent;
import static dev.sluice.model.WireFields.array;
import static dev.sluice.model.WireFields.object;
import static dev.sluice.model.WireFields.refused;
import static dev.sluice.model.WireFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import dev.sluice.model.WireFields;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's chat-completion answer ({@code object: chat.completion}) to and from
 * {@link ChatAnswer}. The internal answer is one assistant turn, so an answer must hold
 * exactly one choice ({@code n > 1} is served only natively). OpenAI's answer text is one
 * string: several text parts are joined.
 */
final class OpenAiChatAnswers {
    private OpenAiChatAnswers() {}

    static ChatAnswer decode(JsonNode node) {
        ObjectNode answer = object(node, "$");
        ArrayNode choices = array(answer.get("choices"), "choices");
        if (choices.size() != 1) {
            throw refused("choices", choices, "exactly one choice");
        }
        ObjectNode choice = object(choices.get(0), "choices[0]");
        ObjectNode message = object(choice.get("message"), "choices[0].message");
        FinishReason finish = OpenAiUsage.decodeFinish(choice, "choices[0]");
        if (finish == null) {
            throw refused("choices[0].finish_reason", choice.get("finish_reason"), "a string");
        }
        Usage usage = absent(answer.get("usage")) ? Usage.NONE : OpenAiUsage.decode(answer.get("usage"), "usage");
        return new ChatAnswer(text(answer, "id", ""), text(answer, "model", ""),
                OpenAiContent.decodeAssistant(message, "choices[0].message"), finish, usage);
    }

    /** The answer as OpenAI writes it; {@code created} is its Unix time in seconds, which the internal answer does not keep. */
    static ObjectNode encode(ChatAnswer answer, long created) {
        ObjectNode body = NODES.objectNode().put("id", answer.id()).put("object", "chat.completion").put("created", created)
                .put("model", answer.model());
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        StringBuilder text = new StringBuilder();
        boolean written = false;
        List<ToolCall> calls = new ArrayList<>();
        List<Reasoning> reasoning = new ArrayList<>();
        for (int i = 0; i < answer.content().size(); i++) {
            switch (answer.content().get(i)) {
                case Text part -> {
                    text.append(part.text());
                    written = true;
                }
                case ToolCall call -> calls.add(call);
                case Reasoning thought -> reasoning.add(thought);
                case Image image -> throw unsupported(answer.content().get(i), i);
                case ToolResult result -> throw unsupported(answer.content().get(i), i);
            }
        }
        if (written) {
            message.put("content", text.toString());
        } else {
            message.putNull("content");
        }
        message.putNull("refusal");
        if (!calls.isEmpty()) {
            message.set("tool_calls", OpenAiContent.encodeToolCalls(calls));
        }
        OpenAiContent.encodeReasoning(reasoning, message);
        choice.putNull("logprobs");
        choice.put("finish_reason", OpenAiUsage.encodeFinish(answer.finishReason()));
        body.set("usage", OpenAiUsage.encode(answer.usage()));
        return body;
    }

    private static IllegalArgumentException unsupported(ContentPart part, int index) {
        return new IllegalArgumentException("content[" + index + "]: " + part.getClass().getSimpleName()
                + " (expected: text, reasoning or tool calls in an OpenAI answer)");
    }
}
