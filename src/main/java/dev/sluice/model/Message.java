package dev.sluice.model;

import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import java.util.ArrayList;
import java.util.List;

/**
 * One turn of a conversation: who spoke and the parts of what they said. Tool calls and
 * reasoning belong to the {@link Role#ASSISTANT}; tool results to {@link Role#TOOL} or, as
 * Anthropic sends them, to {@link Role#USER}; a {@code TOOL} message holds only tool results.
 *
 * @param role  who wrote it
 * @param parts what was said, in order
 * @param name  the speaker's name when the caller gave one (OpenAI's {@code name}), else null
 */
public record Message(Role role, List<ContentPart> parts, String name) {
    public Message {
        Checks.present(role, "role");
        parts = Checks.listOf(parts, "parts");
        for (int i = 0; i < parts.size(); i++) {
            if (!allowed(role, parts.get(i))) {
                throw new IllegalArgumentException("parts[" + i + "]: " + parts.get(i).getClass().getSimpleName()
                        + " (expected no " + parts.get(i).getClass().getSimpleName() + " in a " + role + " message)");
            }
        }
    }

    /** A message of one text part and no name. */
    public static Message text(Role role, String text) {
        return new Message(role, List.of(new Text(text)), null);
    }

    /**
     * The non-empty texts of the instruction messages (system, developer), in order, for a vendor
     * whose system prompt is text only: any other part of an instruction message is refused,
     * worded by {@code misplaced}.
     */
    public static List<Text> instructionTexts(List<Message> messages, Misplaced misplaced) {
        List<Text> texts = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            Message message = messages.get(i);
            if (!message.role().instructs()) {
                continue;
            }
            for (int j = 0; j < message.parts().size(); j++) {
                if (!(message.parts().get(j) instanceof Text text)) {
                    throw new IllegalArgumentException(misplaced.describe(i, j, message));
                }
                if (!text.text().isEmpty()) {
                    texts.add(text);
                }
            }
        }
        return texts;
    }

    /** Words the refusal of a part other than text in an instruction message. */
    @FunctionalInterface
    public interface Misplaced {
        /** The refusal's message for part {@code part} of {@code message}, the {@code index}th message. */
        String describe(int index, int part, Message message);
    }

    private static boolean allowed(Role role, ContentPart part) {
        return switch (part) {
            case ToolCall call -> role == Role.ASSISTANT;
            case Reasoning reasoning -> role == Role.ASSISTANT;
            case ToolResult result -> role == Role.TOOL || role == Role.USER;
            case Text text -> role != Role.TOOL;
            case Image image -> role != Role.TOOL;
        };
    }
}
