package dev.sluice.vendors.openai.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Dialect;
import dev.sluice.model.ExtraFields;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OpenAI's chat-completions request body to and from the internal {@link ChatRequest}. */
class OpenAiChatRequestTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every part type, every covered field and some the model does not cover, in the form OpenAiChat writes. */
    static final String FULL_REQUEST = """
            {
              "model": "gpt-4o",
              "messages": [
                {"role": "system", "content": "You are terse."},
                {"role": "developer", "content": [{"type": "text", "text": "Answer in French."}, {"type": "text", "text": "Use metric units."}]},
                {"role": "user", "name": "ada", "content": [
                  {"type": "text", "text": "What is in these pictures, and what is the weather?"},
                  {"type": "image_url", "image_url": {"url": "https://example.com/cat.png", "detail": "high"}},
                  {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]},
                {"role": "assistant", "content": "Let me look that up.", "reasoning_content": "Two tools are needed.",
                 "tool_calls": [
                   {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                   {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{\\"tz\\":\\"Europe/Paris\\"}"}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": "18 C, cloudy"},
                {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "14:05"}, {"type": "text", "text": "CEST"}]}
              ],
              "tools": [
                {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "strict": true}},
                {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}}
              ],
              "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
              "max_completion_tokens": 512,
              "temperature": 0.2,
              "top_p": 0.9,
              "stop": ["\\n\\n", "END"],
              "stream": true,
              "stream_options": {"include_usage": true},
              "seed": 42,
              "response_format": {"type": "text"},
              "parallel_tool_calls": false,
              "x_vendor_flag": {"nested": [1, 2.5, null]}
            }
            """;

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    /** The tree a reader of {@code node}'s JSON text gets: numbers compare by their text, not by the node type that wrote them. */
    static JsonNode wire(JsonNode node) {
        return json(node.toString());
    }

    @Test
    void everyPartAndFieldDecodesIntoTheModel() {
        ChatRequest request = OpenAiChat.decodeRequest(json(FULL_REQUEST));

        Map<String, JsonNode> extra = new LinkedHashMap<>();
        extra.put("stream_options", json("{\"include_usage\": true}"));
        extra.put("seed", json("42"));
        extra.put("response_format", json("{\"type\": \"text\"}"));
        extra.put("parallel_tool_calls", json("false"));
        extra.put("x_vendor_flag", json("{\"nested\": [1, 2.5, null]}"));
        assertThat(request).isEqualTo(new ChatRequest("gpt-4o", List.of(
                Message.text(Role.SYSTEM, "You are terse."),
                new Message(Role.DEVELOPER, List.of(new Text("Answer in French."), new Text("Use metric units.")), null),
                new Message(Role.USER, List.of(new Text("What is in these pictures, and what is the weather?"),
                        Image.atUrl("https://example.com/cat.png", "high"), Image.inline("image/png", "iVBORw0KGgo=", null)), "ada"),
                new Message(Role.ASSISTANT, List.of(Reasoning.plain("Two tools are needed."), new Text("Let me look that up."),
                        new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"),
                        new ToolCall("call_2", "get_time", "{\"tz\":\"Europe/Paris\"}")), null),
                new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("18 C, cloudy")), false)), null),
                new Message(Role.TOOL, List.of(new ToolResult("call_2", List.of(new Text("14:05"), new Text("CEST")), false)), null)),
                List.of(new Tool("get_weather", "Weather for a city",
                                json("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}"), true),
                        new Tool("get_time", null, json("{\"type\": \"object\", \"properties\": {\"tz\": {\"type\": \"string\"}}}"), null)),
                ToolChoice.tool("get_weather"), new Sampling(512, 0.2, 0.9, List.of("\n\n", "END")), true,
                new ExtraFields(Dialect.OPENAI, extra)));
    }

    @Test
    void decodeThenEncodeGivesBackAnEqualTree() {
        JsonNode body = json(FULL_REQUEST);

        ObjectNode encoded = OpenAiChat.encodeRequest(OpenAiChat.decodeRequest(body));

        assertThat(encoded).isEqualTo(body);
        assertThat(OpenAiChat.decodeRequest(encoded)).isEqualTo(OpenAiChat.decodeRequest(body));
    }

    @Test
    void theEncodedRequestIsOneOpenAisSdkReads() throws Exception {
        ObjectNode encoded = OpenAiChat.encodeRequest(OpenAiChat.decodeRequest(json(FULL_REQUEST)));

        ChatCompletionCreateParams.Body body = ObjectMappers.jsonMapper()
                .readValue(encoded.toString(), ChatCompletionCreateParams.Body.class).validate();

        assertThat(body.messages()).hasSize(6);
        assertThat(body.messages().get(1).isDeveloper()).isTrue();
        assertThat(body.messages().get(3).asAssistant().toolCalls().orElseThrow()).hasSize(2);
        assertThat(body.messages().get(4).asTool().toolCallId()).isEqualTo("call_1");
        assertThat(body.tools().orElseThrow().get(0).asFunction().function().name()).isEqualTo("get_weather");
        assertThat(body.maxCompletionTokens()).hasValue(512L);
        assertThat(body.seed()).hasValue(42L);
    }

    @Test
    void otherSpellingsReadTheSameAndComeBackInTheCanonicalOne() {
        ChatRequest request = OpenAiChat.decodeRequest(json("""
                {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
                 "max_tokens": 100, "stop": "END", "stream": false, "tool_choice": "required"}
                """));

        assertThat(request.sampling()).isEqualTo(new Sampling(100, null, null, List.of("END")));
        assertThat(request.extra().fields()).isEmpty();
        assertThat(OpenAiChat.encodeRequest(request)).isEqualTo(json("""
                {"model": "m", "messages": [{"role": "user", "content": "hi"}],
                 "tool_choice": "required", "max_completion_tokens": 100, "stop": ["END"]}
                """));
    }

    @Test
    void maxTokensBesideMaxCompletionTokensStaysAnExtraField() {
        JsonNode body = json("""
                {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_completion_tokens": 50, "max_tokens": 80}
                """);

        ChatRequest request = OpenAiChat.decodeRequest(body);

        assertThat(request.sampling().maxTokens()).isEqualTo(50);
        assertThat(request.extra().fields()).containsOnlyKeys("max_tokens");
        assertThat(OpenAiChat.encodeRequest(request)).isEqualTo(body);
    }

    @Test
    void toolResultsInsideAUserMessageBecomeToolMessagesBeforeIt() {
        ChatRequest request = new ChatRequest("m", List.of(new Message(Role.USER, List.of(
                new ToolResult("toolu_1", List.of(new Text("18 C")), false),
                new ToolResult("toolu_2", List.of(new Text("no such city")), true),
                new Text("And tomorrow?")), null)), List.of(), null, Sampling.DEFAULTS, false, ExtraFields.none(Dialect.OPENAI));

        assertThat(OpenAiChat.encodeRequest(request)).isEqualTo(json("""
                {"model": "m", "messages": [
                  {"role": "tool", "tool_call_id": "toolu_1", "content": "18 C"},
                  {"role": "tool", "tool_call_id": "toolu_2", "content": "no such city"},
                  {"role": "user", "content": "And tomorrow?"}]}
                """));
    }

    @Test
    void signedReasoningTravelsAsThinkingBlocksAndComesBackUnchanged() {
        JsonNode body = json("""
                {"model": "m", "messages": [
                  {"role": "user", "content": "Weather in Paris?"},
                  {"role": "assistant", "reasoning_content": "I should call the tool.",
                   "thinking_blocks": [{"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCkYIARgCIkD"},
                                       {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}],
                   "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}]}
                """);

        ChatRequest request = OpenAiChat.decodeRequest(body);

        assertThat(request.messages().get(1).parts()).containsExactly(
                new Reasoning("I should call the tool.", "EqQBCkYIARgCIkD", false), new Reasoning("EmwKAhgBEgy3va3pzix", null, true),
                new ToolCall("toolu_1", "get_weather", "{}"));
        assertThat(OpenAiChat.encodeRequest(request)).isEqualTo(body);
    }

    @Test
    void whatOpenAiHasNoPlaceForIsRefusedByItsPart() {
        ChatRequest imageInToolResult = new ChatRequest("m", List.of(new Message(Role.TOOL, List.of(new ToolResult("call_1",
                List.of(Image.atUrl("https://example.com/chart.png", null)), false)), null)), List.of(), null, Sampling.DEFAULTS,
                false, ExtraFields.none(Dialect.OPENAI));

        assertThatThrownBy(() -> OpenAiChat.encodeRequest(imageInToolResult)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("messages[0].parts.content[0]: Image (expected: text; OpenAI takes images in user messages only)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            []                                                                             | $: [] (expected: an object)
            {"messages": [{"role": "user", "content": "hi"}]}                                | model: missing (expected: a string)
            {"model": "m", "messages": {}}                                                 | messages: {} (expected: an array)
            {"model": "m", "messages": []}                                                 | messages: [] (expected: at least one message)
            {"model": "m", "messages": [{"role": "robot", "content": "hi"}]}                 | messages[0].role: "robot" (expected: one of system, developer, user, assistant, tool)
            {"model": "m", "messages": [{"content": "hi"}]}                                | messages[0].role: missing (expected: a string)
            {"model": null, "messages": [{"role": "user", "content": "hi"}]}                 | model: null (expected: a string)
            {"model": "m", "messages": [{"role": "user", "content": 42}]}                    | messages[0].content: 42 (expected: a string or an array of content parts)
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "input_audio"}]}]} | messages[0].content[1].type: "input_audio" (expected: text or image_url)
            {"model": "m", "messages": [{"role": "system", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}]} | messages[0].content[0].type: "image_url" (expected: text)
            {"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": 42}}]}]} | messages[0].content[0].image_url.url: 42 (expected: a string)
            {"model": "m", "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": {}}}]}]} | messages[1].tool_calls[0].function.arguments: {} (expected: a string)
            {"model": "m", "messages": [{"role": "assistant", "tool_calls": [{"id": "c", "type": "custom", "custom": {}}]}]} | messages[0].tool_calls[0].type: "custom" (expected: function)
            {"model": "m", "messages": [{"role": "assistant", "thinking_blocks": [{"type": "thinking"}]}]} | messages[0].thinking_blocks[0].thinking: missing (expected: a string)
            {"model": "m", "messages": [{"role": "tool", "content": "x"}]}                 | messages[0].tool_call_id: missing (expected: a string)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "tools": [{"type": "custom"}]} | tools[0].type: "custom" (expected: function)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": "x"}}]} | tools[0].function.parameters: "x" (expected: an object)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "tool_choice": "sometimes"} | `tool_choice: "sometimes" (expected: auto, none, required or {"type":"function","function":{"name":...}})`
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "tool_choice": {"type": "function", "function": {}}} | tool_choice.function.name: missing (expected: a string)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "temperature": "hot"} | temperature: "hot" (expected: a number >= 0)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "max_completion_tokens": -1} | max_completion_tokens: -1 (expected: a whole number >= 0)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "max_tokens": 1.5} | max_tokens: 1.5 (expected: a whole number >= 0)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "stop": [1]}     | stop[0]: 1 (expected: a string)
            {"model": "m", "messages": [{"role": "user", "content": "a"}], "stream": "yes"} | stream: "yes" (expected: a boolean)
            """)
    void aMalformedValueIsRefusedByItsPath(String body, String message) {
        assertThatThrownBy(() -> OpenAiChat.decodeRequest(json(body))).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
