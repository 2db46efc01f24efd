package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.ContentPart.Text;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The texts a text-only system prompt is made of, and the refusal of anything else there. */
class InstructionTextsTest {
    private static final Message.Misplaced WORDING = (i, j, message) -> i + "/" + j + " in " + message.role();

    @Test
    void keepsTheNonEmptyTextsOfSystemAndDeveloperMessagesInOrder() {
        List<Message> messages = List.of(Message.text(Role.SYSTEM, "be brief"), Message.text(Role.USER, "hi"),
                new Message(Role.DEVELOPER, List.of(new Text(""), new Text("in French")), null));

        assertThat(Message.instructionTexts(messages, WORDING)).extracting(Text::text).containsExactly("be brief", "in French");
    }

    @Test
    void refusesAnImageInAnInstructionMessageInTheCallersWords() {
        List<Message> messages = List.of(Message.text(Role.USER, "hi"),
                new Message(Role.SYSTEM, List.of(new Text("look"), ContentPart.Image.atUrl("https://example.test/a.png", null)), null));

        assertThatThrownBy(() -> Message.instructionTexts(messages, WORDING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("1/1 in SYSTEM");
    }
}
