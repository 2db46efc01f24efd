package dev.sluice.vendors.openai.responses;

import static dev.sluice.vendors.openai.responses.ResponsesRequestDecoderTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.Usage;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conversation a response leaves for a follow-up, how it is stored, and how a follow-up takes it up. */
class ResponsesConversationTest {
    static final List<Message> CONVERSATION = List.of(
            Message.text(Role.SYSTEM, "Be kind."),
            Message.text(Role.DEVELOPER, "Use metric units."),
            new Message(Role.USER, List.of(new Text("What is this?"), Image.atUrl("https://example.com/cat.png", "high"),
                    Image.inline("image/png", "iVBORw0KGgo=", null)), null),
            new Message(Role.ASSISTANT, List.of(new Reasoning("Signed thought.", "sig-1", false), new Reasoning("opaque", null, true),
                    Reasoning.plain("Plain thought."), new Text("A cat."), new Text(" Checking the weather."),
                    new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"), new ToolCall("call_2", "get_time", "{}")), null),
            new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("18 C"),
                    Image.inline("image/jpeg", "/9j/4AAQ", "low")), false)), null),
            new Message(Role.TOOL, List.of(new ToolResult("call_2", List.of(new Text("14:05")), false)), null),
            Message.text(Role.ASSISTANT, "It is 18 C at 14:05."),
            new Message(Role.ASSISTANT, List.of(), null),
            new Message(Role.USER, List.of(), null));

    @Test
    void aStoredConversationReadsBackAsItWent() {
        ArrayNode stored = ResponsesApi.encodeConversation(CONVERSATION);

        assertThat(ResponsesApi.decodeConversation(json(stored.toString()))).isEqualTo(CONVERSATION);
        assertThat(ResponsesApi.decodeConversation(ResponsesApi.encodeConversation(List.of()))).isEmpty();
    }

    @Test
    void theStoredFormIsTheResponsesApisOwnInputItems() {
        ArrayNode stored = ResponsesApi.encodeConversation(CONVERSATION.subList(3, 5));

        assertThat(stored).isEqualTo(json("""
                [{"type": "reasoning", "summary": [{"type": "summary_text", "text": "Signed thought."}], "encrypted_content": "sig-1"},
                 {"type": "reasoning", "summary": [], "encrypted_content": "opaque"},
                 {"type": "reasoning", "summary": [{"type": "summary_text", "text": "Plain thought."}]},
                 {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "A cat."},
                                                                     {"type": "output_text", "text": " Checking the weather."}]},
                 {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"},
                 {"type": "function_call", "call_id": "call_2", "name": "get_time", "arguments": "{}"},
                 {"type": "function_call_output", "call_id": "call_1", "output": [{"type": "input_text", "text": "18 C"},
                   {"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/4AAQ", "detail": "low"}]}]
                """));
    }

    @Test
    void aToolResultInsideAUserMessageIsStoredAsAFunctionCallOutputBeforeTheRest() {
        List<Message> anthropicStyle = List.of(new Message(Role.USER, List.of(new ToolResult("call_1", List.of(new Text("ok")), false),
                new Text("Go on.")), null));

        assertThat(ResponsesApi.decodeConversation(ResponsesApi.encodeConversation(anthropicStyle))).containsExactly(
                new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("ok")), false)), null),
                Message.text(Role.USER, "Go on."));
    }

    @Test
    void anImageFromTheAssistantCannotBeStoredAndIsRefusedByItsPlace() {
        List<Message> messages = List.of(Message.text(Role.USER, "Draw"),
                new Message(Role.ASSISTANT, List.of(new Text("Here"), Image.atUrl("https://example.com/a.png", null)), null));

        assertThatThrownBy(() -> ResponsesApi.encodeConversation(messages))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("messages[1].parts[1]: Image (expected: text, reasoning or a tool call from the assistant)");
    }

    @Test
    void theConversationOfAResponseIsItsInputAndAnswerWithoutTheInstructions() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json("""
                {"model": "m", "instructions": "Be brief.",
                 "input": [{"role": "developer", "content": "Metric."}, {"role": "user", "content": "Weather?"}]}"""));
        ChatAnswer answer = new ChatAnswer("resp_1", "m", List.of(new Text("Checking."), new ToolCall("call_1", "get_weather", "{}")),
                FinishReason.TOOL_CALLS, Usage.NONE);

        assertThat(ResponsesApi.conversationOf(request, answer)).containsExactly(
                Message.text(Role.DEVELOPER, "Metric."),
                Message.text(Role.USER, "Weather?"),
                new Message(Role.ASSISTANT, List.of(new Text("Checking."), new ToolCall("call_1", "get_weather", "{}")), null));
    }

    @Test
    void aFollowUpCarriesTheEarlierTurnsAfterItsOwnInstructionsAndBeforeItsInput() {
        ResponsesRequest first = ResponsesApi.decodeRequest(json("""
                {"model": "m", "instructions": "Old rules.", "input": "Weather in Paris?"}"""));
        ChatAnswer firstAnswer = new ChatAnswer("resp_1", "m", List.of(new ToolCall("call_1", "get_weather", "{}")),
                FinishReason.TOOL_CALLS, Usage.NONE);
        List<Message> stored = ResponsesApi.decodeConversation(ResponsesApi.encodeConversation(
                ResponsesApi.conversationOf(first, firstAnswer)));
        ResponsesRequest second = ResponsesApi.decodeRequest(json("""
                {"model": "m", "instructions": "New rules.", "previous_response_id": "resp_1",
                 "input": [{"role": "developer", "content": "Metric."},
                           {"type": "function_call_output", "call_id": "call_1", "output": "18 C"}]}"""));

        ResponsesRequest followUp = second.withEarlierTurns(stored);

        List<Message> expected = List.of(
                Message.text(Role.SYSTEM, "New rules."),
                Message.text(Role.USER, "Weather in Paris?"),
                new Message(Role.ASSISTANT, List.of(new ToolCall("call_1", "get_weather", "{}")), null),
                Message.text(Role.DEVELOPER, "Metric."),
                new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("18 C")), false)), null));
        assertThat(followUp.chat().messages()).isEqualTo(expected);
        assertThat(followUp.instructions()).isEqualTo("New rules.");
        assertThat(OpenAiChat.encodeRequest(followUp.chat()).get("messages")).hasSize(5);
        ChatAnswer secondAnswer = new ChatAnswer("resp_2", "m", List.of(new Text("18 C.")), FinishReason.STOP, Usage.NONE);
        assertThat(ResponsesApi.conversationOf(followUp, secondAnswer)).isEqualTo(List.of(expected.get(1), expected.get(2),
                expected.get(3), expected.get(4), Message.text(Role.ASSISTANT, "18 C.")));
    }

    @Test
    void earlierTurnsGoAfterTheLeadingInstructionsOfAChatRequest() {
        ChatRequest chat = ResponsesApi.decodeRequest(json("""
                {"model": "m", "instructions": "Rules.", "input": [{"role": "user", "content": "Next?"}]}""")).chat();
        List<Message> earlier = List.of(Message.text(Role.USER, "First?"), Message.text(Role.ASSISTANT, "First."));

        assertThat(ResponsesApi.withEarlierTurns(chat, earlier).messages()).containsExactly(
                Message.text(Role.SYSTEM, "Rules."), Message.text(Role.USER, "First?"), Message.text(Role.ASSISTANT, "First."),
                Message.text(Role.USER, "Next?"));
        ChatRequest noInstructions = ResponsesApi.decodeRequest(json("{\"model\": \"m\", \"input\": \"Next?\"}")).chat();
        assertThat(ResponsesApi.withEarlierTurns(noInstructions, earlier).messages()).containsExactly(
                Message.text(Role.USER, "First?"), Message.text(Role.ASSISTANT, "First."), Message.text(Role.USER, "Next?"));
    }
}
