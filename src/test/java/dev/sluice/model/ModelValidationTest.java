package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each value of the internal model refuses what it cannot be, naming the field. */
class ModelValidationTest {

    @Test
    void countsMustNotBeNegative() {
        assertThatThrownBy(() -> new Usage(10, 5, -1, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cachedPromptTokens: -1 (expected: >= 0)");
        assertThatThrownBy(() -> new Usage(0, 0, 0, 0, -2)).hasMessage("reasoningTokens: -2 (expected: >= 0)");
        assertThatThrownBy(() -> new StreamEvent.ToolCallDelta(-1, null, null, "")).hasMessage("index: -1 (expected: >= 0)");
        assertThatThrownBy(() -> new Sampling(-1, null, null, List.of())).hasMessage("maxTokens: -1 (expected: >= 0)");
        assertThatThrownBy(() -> new Sampling(null, Double.NaN, null, List.of()))
                .hasMessage("temperature: NaN (expected: a number >= 0)");
        assertThat(new Usage(0, 0, 0, 0, 0)).isEqualTo(Usage.NONE);
        assertThat(new Usage(100, 20, 0, 0, 0).totalTokens()).isEqualTo(120);
    }

    @Test
    void nullsAreRefusedByName() {
        assertThatThrownBy(() -> new Text(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("text: null (expected: a value)");
        assertThatThrownBy(() -> new ChatAnswer("id", "m", List.of(), null, Usage.NONE))
                .hasMessage("finishReason: null (expected: a value)");
        assertThatThrownBy(() -> new Message(Role.USER, Arrays.asList(new Text("a"), null), null))
                .hasMessage("parts[1]: null (expected: a value)");
        assertThatThrownBy(() -> new ToolCall("call_1", " ", "{}")).hasMessage("name: \" \" (expected: a non-blank string)");
        assertThatThrownBy(() -> new StreamEvent.Started("id", null)).hasMessage("model: null (expected: a value)");
    }

    @Test
    void anImageIsAUrlOrInlineDataNeverBoth() {
        assertThat(Image.atUrl("https://example.com/a.png", null).inline()).isFalse();
        assertThat(Image.inline("image/png", "iVBORw0KGgo=", "low").inline()).isTrue();
        assertThatThrownBy(() -> new Image("https://example.com/a.png", "image/png", "AAAA", null, null))
                .hasMessage("url: https://example.com/a.png (expected: either a url or inline data, not both)");
        assertThatThrownBy(() -> Image.inline(null, "AAAA", null)).hasMessage("mediaType: null (expected: a value)");
    }

    @Test
    void partsBelongToTheirRoles() {
        ToolCall call = new ToolCall("call_1", "get_weather", "{}");
        ToolResult result = new ToolResult("call_1", List.of(new Text("18 C")), false);
        assertThat(new Message(Role.ASSISTANT, List.of(Reasoning.plain("hm"), call), null).parts()).hasSize(2);
        assertThat(new Message(Role.USER, List.of(result, new Text("and tomorrow?")), null).parts()).hasSize(2);
        assertThatThrownBy(() -> new Message(Role.USER, List.of(call), null))
                .hasMessage("parts[0]: ToolCall (expected no ToolCall in a USER message)");
        assertThatThrownBy(() -> new Message(Role.TOOL, List.of(result, new Text("x")), null))
                .hasMessage("parts[1]: Text (expected no Text in a TOOL message)");
        assertThatThrownBy(() -> new ToolResult("call_1", List.of(call), false))
                .hasMessage("content[0]: ToolCall (expected: text or image in a tool result)");
        assertThatThrownBy(() -> new ChatAnswer("id", "m", List.of(result), FinishReason.STOP, Usage.NONE))
                .hasMessage("content[0]: ToolResult (expected: no tool result in an answer)");
    }

    @Test
    void choicesAndReasonsKeepTheirRules() {
        assertThat(ToolChoice.tool("get_weather").toolName()).isEqualTo("get_weather");
        assertThatThrownBy(() -> new ToolChoice(ToolChoice.Mode.TOOL, null)).hasMessage("toolName: null (expected: a value)");
        assertThatThrownBy(() -> new ToolChoice(ToolChoice.Mode.AUTO, "x")).hasMessage("toolName: x (expected: none unless mode is TOOL)");
        assertThat(FinishReason.other("pause_turn").vendorReason()).isEqualTo("pause_turn");
        assertThatThrownBy(() -> FinishReason.other("")).hasMessage("vendorReason: \"\" (expected: a non-blank string)");
        assertThatThrownBy(() -> new FinishReason(FinishReason.Kind.STOP, "end_turn"))
                .hasMessage("vendorReason: end_turn (expected: none unless kind is OTHER)");
    }

    @Test
    void listsAreCopiedSoTheValueCannotChangeUnderneath() {
        List<ContentPart> parts = new ArrayList<>(List.of(new Text("a")));
        Message message = new Message(Role.USER, parts, null);
        parts.add(new Text("b"));
        assertThat(message.parts()).containsExactly(new Text("a"));
        assertThatThrownBy(() -> message.parts().add(new Text("c"))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void extraFieldsReachOnlyTheirOwnDialect() {
        ExtraFields extra = new ExtraFields(Dialect.OPENAI,
                java.util.Map.of("seed", com.fasterxml.jackson.databind.node.IntNode.valueOf(7)));
        assertThat(extra.in(Dialect.OPENAI)).containsOnlyKeys("seed");
        assertThat(ExtraFields.none(Dialect.OPENAI).in(Dialect.OPENAI)).isEmpty();
        assertThat(Role.DEVELOPER.instructs()).isTrue();
        assertThat(Role.USER.instructs()).isFalse();
    }
}
