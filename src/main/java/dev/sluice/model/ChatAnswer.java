package dev.sluice.model;

import java.util.List;

/**
 * A whole (not streamed) chat answer in the internal model: one assistant turn.
 *
 * @param id           the vendor's id for the answer
 * @param model        the model that answered, as the vendor names it
 * @param content      what the assistant wrote: text, images, reasoning and tool calls, in order
 * @param finishReason why it stopped
 * @param usage        the tokens the call used; {@link Usage#NONE} when the vendor reported none
 */
public record ChatAnswer(String id, String model, List<ContentPart> content, FinishReason finishReason, Usage usage) {
    public ChatAnswer {
        Checks.present(id, "id");
        Checks.present(model, "model");
        content = Checks.listOf(content, "content");
        for (int i = 0; i < content.size(); i++) {
            if (content.get(i) instanceof ContentPart.ToolResult) {
                throw new IllegalArgumentException("content[" + i + "]: ToolResult (expected: no tool result in an answer)");
            }
        }
        Checks.present(finishReason, "finishReason");
        Checks.present(usage, "usage");
    }
}
