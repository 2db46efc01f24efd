package dev.sluice.vendors.openai.responses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFormatTextJsonSchemaConfig;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseTextConfig;
import com.openai.models.responses.ToolChoiceFunction;
import dev.sluice.model.ChatRequest;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.ContentPart.ToolResult;
import dev.sluice.model.Message;
import dev.sluice.model.Role;
import dev.sluice.model.Sampling;
import dev.sluice.model.Tool;
import dev.sluice.model.ToolChoice;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A Responses API request body into a {@link ResponsesRequest}: every input form, every carried field, every refusal. */
class ResponsesRequestDecoderTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final String FULL_REQUEST = """
            {
              "model": "gpt-4.1",
              "instructions": "You are terse.",
              "input": [
                {"role": "developer", "content": "Use metric units."},
                {"type": "message", "role": "user", "content": [
                  {"type": "input_text", "text": "What is in these pictures, and what is the weather?"},
                  {"type": "input_image", "image_url": "https://example.com/cat.png", "detail": "high"},
                  {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]},
                {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Two tools are needed."}],
                 "encrypted_content": "sig-1"},
                {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                 "content": [{"type": "output_text", "text": "Let me look that up.", "annotations": []}]},
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"},
                {"type": "function_call", "call_id": "call_2", "name": "get_time", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "call_1", "output": "18 C, cloudy"},
                {"type": "function_call_output", "call_id": "call_2", "output": [{"type": "input_text", "text": "14:05"}]},
                {"role": "assistant", "content": [{"type": "refusal", "refusal": "I cannot say more."}]},
                {"role": "system", "content": [{"type": "input_text", "text": "Be kind."}]},
                {"type": "reasoning", "summary": [], "encrypted_content": "redacted-data"},
                {"type": "reasoning", "summary": []},
                {"role": "user", "content": "Thanks"}
              ],
              "tools": [
                {"type": "function", "name": "get_weather", "description": "Weather for a city",
                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}, "strict": true},
                {"type": "function", "name": "get_time", "parameters": null, "strict": null}
              ],
              "tool_choice": {"type": "function", "name": "get_weather"},
              "max_output_tokens": 512,
              "temperature": 0.2,
              "top_p": 0.9,
              "text": {"format": {"type": "json_schema", "name": "weather", "description": "The weather",
                                  "schema": {"type": "object"}, "strict": true}, "verbosity": "low"},
              "reasoning": {"effort": "low", "summary": "auto"},
              "parallel_tool_calls": false,
              "metadata": {"trace": "t-1"},
              "user": "ada",
              "store": false,
              "previous_response_id": "resp_0",
              "include": ["reasoning.encrypted_content"],
              "truncation": "disabled",
              "stream": true
            }
            """;

    @Test
    void everyInputFormDecodesIntoTheConversation() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(FULL_REQUEST));

        assertThat(request.chat().messages()).containsExactly(
                Message.text(Role.SYSTEM, "You are terse."),
                Message.text(Role.DEVELOPER, "Use metric units."),
                new Message(Role.USER, List.of(new Text("What is in these pictures, and what is the weather?"),
                        Image.atUrl("https://example.com/cat.png", "high"), Image.inline("image/png", "iVBORw0KGgo=", null)), null),
                new Message(Role.ASSISTANT, List.of(new Reasoning("Two tools are needed.", "sig-1", false), new Text("Let me look that up."),
                        new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"), new ToolCall("call_2", "get_time", "{}")), null),
                new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("18 C, cloudy")), false)), null),
                new Message(Role.TOOL, List.of(new ToolResult("call_2", List.of(new Text("14:05")), false)), null),
                Message.text(Role.ASSISTANT, "I cannot say more."),
                Message.text(Role.SYSTEM, "Be kind."),
                new Message(Role.ASSISTANT, List.of(new Reasoning("redacted-data", null, true)), null),
                Message.text(Role.USER, "Thanks"));
    }

    @Test
    void theSettingsAreCarriedAsChatCompletionsCarriesThem() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(FULL_REQUEST));
        ChatRequest chat = request.chat();

        assertThat(chat.model()).isEqualTo("gpt-4.1");
        assertThat(chat.stream()).isTrue();
        assertThat(chat.tools()).containsExactly(
                new Tool("get_weather", "Weather for a city",
                        json("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}"), true),
                new Tool("get_time", null, null, null));
        assertThat(chat.toolChoice()).isEqualTo(ToolChoice.tool("get_weather"));
        assertThat(chat.sampling()).isEqualTo(new Sampling(512, 0.2, 0.9, List.of()));
        assertThat(chat.extra().fields()).isEqualTo(Map.of(
                "response_format", json("""
                        {"type": "json_schema", "json_schema": {"name": "weather", "description": "The weather",
                         "schema": {"type": "object"}, "strict": true}}"""),
                "verbosity", json("\"low\""),
                "reasoning_effort", json("\"low\""),
                "parallel_tool_calls", json("false"),
                "metadata", json("{\"trace\": \"t-1\"}"),
                "user", json("\"ada\"")));
    }

    @Test
    void theRequestKeepsWhatTheResponseRepeats() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(FULL_REQUEST));

        assertThat(request.model()).isEqualTo("gpt-4.1");
        assertThat(request.instructions()).isEqualTo("You are terse.");
        assertThat(request.previousResponseId()).isEqualTo("resp_0");
        assertThat(request.store()).isFalse();
        assertThat(request.metadata()).isEqualTo(json("{\"trace\": \"t-1\"}"));
        JsonNode body = json(FULL_REQUEST);
        assertThat(request.echoed()).isEqualTo(JSON.createObjectNode().setAll(Map.<String, JsonNode>of(
                "tools", body.get("tools"), "tool_choice", body.get("tool_choice"), "text", body.get("text"),
                "reasoning", body.get("reasoning"), "temperature", body.get("temperature"), "top_p", body.get("top_p"),
                "max_output_tokens", body.get("max_output_tokens"), "parallel_tool_calls", body.get("parallel_tool_calls"),
                "user", body.get("user"))));
    }

    @Test
    void aStringInputIsOneUserMessageAndTheDefaultsHold() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json("{\"model\": \"m\", \"input\": \"Hello\"}"));

        assertThat(request.chat().messages()).containsExactly(Message.text(Role.USER, "Hello"));
        assertThat(request.chat().tools()).isEmpty();
        assertThat(request.chat().toolChoice()).isNull();
        assertThat(request.chat().sampling()).isEqualTo(Sampling.DEFAULTS);
        assertThat(request.chat().stream()).isFalse();
        assertThat(request.chat().extra().fields()).isEmpty();
        assertThat(request.instructions()).isNull();
        assertThat(request.previousResponseId()).isNull();
        assertThat(request.store()).isTrue();
        assertThat(request.metadata()).isNull();
        assertThat(request.echoed()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"auto\"|AUTO", "\"none\"|NONE", "\"required\"|REQUIRED"})
    void theToolChoiceWordsDecode(String choice, ToolChoice.Mode mode) {
        ResponsesRequest request = ResponsesApi.decodeRequest(json("{\"model\": \"m\", \"input\": \"hi\", \"tool_choice\": " + choice + "}"));

        assertThat(request.chat().toolChoice()).isEqualTo(new ToolChoice(mode, null));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"type\": \"text\"}|{\"type\": \"text\"}",
            "{\"type\": \"json_object\"}|{\"type\": \"json_object\"}",
            "{\"type\": \"json_schema\", \"name\": \"n\", \"schema\": {}}|{\"type\": \"json_schema\", \"json_schema\": {\"name\": \"n\", \"schema\": {}}}"})
    void everyTextFormatBecomesAResponseFormat(String format, String responseFormat) {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(
                "{\"model\": \"m\", \"input\": \"hi\", \"text\": {\"format\": " + format + "}}"));

        assertThat(request.chat().extra().fields()).isEqualTo(Map.of("response_format", json(responseFormat)));
    }

    @Test
    void parallelToolCallsWithoutToolsIsNotPassedOnForChatCompletionsRefusesIt() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json("{\"model\": \"m\", \"input\": \"hi\", \"parallel_tool_calls\": true}"));

        assertThat(request.chat().extra().fields()).isEmpty();
        assertThat(request.echoed().get("parallel_tool_calls").booleanValue()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"input\": \"hi\"}|model: missing (expected: a string)",
            "{\"model\": \"m\"}|input: missing (expected: a string or an array of input items)",
            "{\"model\": \"m\", \"input\": []}|input: [] (expected: at least one input item)",
            "{\"model\": \"m\", \"input\": [{\"type\": \"computer_call\"}]}|"
                    + "input[0].type: \"computer_call\" (expected: message, function_call, function_call_output or reasoning)",
            "{\"model\": \"m\", \"input\": [{\"content\": \"hi\"}]}|"
                    + "input[0].type: missing (expected: message, function_call, function_call_output or reasoning)",
            "{\"model\": \"m\", \"input\": [{\"role\": \"tool\", \"content\": \"hi\"}]}|"
                    + "input[0].role: \"tool\" (expected: user, assistant, system or developer)",
            "{\"model\": \"m\", \"input\": [{\"role\": \"user\", \"content\": [{\"type\": \"input_file\", \"file_id\": \"f\"}]}]}|"
                    + "input[0].content[0].type: \"input_file\" (expected: input_text or input_image)",
            "{\"model\": \"m\", \"input\": [{\"role\": \"user\", \"content\": [{\"type\": \"input_image\", \"file_id\": \"file-1\"}]}]}|"
                    + "input[0].content[0].file_id: \"file-1\" (expected: image_url; an uploaded file cannot be sent on)",
            "{\"model\": \"m\", \"input\": [{\"role\": \"system\", \"content\": [{\"type\": \"input_image\", \"image_url\": \"u\"}]}]}|"
                    + "input[0].content[0].type: \"input_image\" (expected: input_text)",
            "{\"model\": \"m\", \"input\": [{\"role\": \"assistant\", \"content\": [{\"type\": \"input_image\", \"image_url\": \"u\"}]}]}|"
                    + "input[0].content[0].type: \"input_image\" (expected: output_text or refusal)",
            "{\"model\": \"m\", \"input\": [{\"type\": \"function_call\", \"name\": \"f\", \"arguments\": \"{}\"}]}|"
                    + "input[0].call_id: missing (expected: a string)",
            "{\"model\": \"m\", \"input\": [{\"type\": \"function_call_output\", \"call_id\": \"c\", \"output\": 3}]}|"
                    + "input[0].output: 3 (expected: a string or an array of content parts)",
            "{\"model\": \"m\", \"input\": [{\"type\": \"reasoning\", \"summary\": [{\"type\": \"x\", \"text\": \"t\"}]}]}|"
                    + "input[0].summary[0].type: \"x\" (expected: summary_text)",
            "{\"model\": \"m\", \"input\": \"hi\", \"tools\": [{\"type\": \"web_search\"}]}|"
                    + "tools[0].type: \"web_search\" (expected: function; hosted tools are not served)",
            "{\"model\": \"m\", \"input\": \"hi\", \"tools\": [{\"type\": \"function\", \"name\": \" \"}]}|"
                    + "tools[0].name: \" \" (expected: a non-blank string)",
            "{\"model\": \"m\", \"input\": \"hi\", \"tools\": [{\"type\": \"function\", \"name\": \"f\", \"parameters\": []}]}|"
                    + "tools[0].parameters: [] (expected: an object)",
            "{\"model\": \"m\", \"input\": \"hi\", \"tool_choice\": \"any\"}|"
                    + "tool_choice: \"any\" (expected: auto, none, required or {\"type\":\"function\",\"name\":...})",
            "{\"model\": \"m\", \"input\": \"hi\", \"tool_choice\": {\"type\": \"file_search\"}}|"
                    + "tool_choice: {\"type\":\"file_search\"} (expected: auto, none, required or {\"type\":\"function\",\"name\":...})",
            "{\"model\": \"m\", \"input\": \"hi\", \"text\": {\"format\": {\"type\": \"xml\"}}}|"
                    + "text.format.type: \"xml\" (expected: text, json_object or json_schema)",
            "{\"model\": \"m\", \"input\": \"hi\", \"text\": {\"format\": {\"type\": \"json_schema\", \"schema\": {}}}}|"
                    + "text.format.name: missing (expected: a string)",
            "{\"model\": \"m\", \"input\": \"hi\", \"max_output_tokens\": -1}|max_output_tokens: -1 (expected: a whole number >= 0)",
            "{\"model\": \"m\", \"input\": \"hi\", \"temperature\": \"hot\"}|temperature: \"hot\" (expected: a number >= 0)",
            "{\"model\": \"m\", \"input\": \"hi\", \"reasoning\": {\"effort\": 3}}|reasoning.effort: 3 (expected: a string)",
            "{\"model\": \"m\", \"input\": \"hi\", \"metadata\": []}|metadata: [] (expected: an object)",
            "{\"model\": \"m\", \"input\": \"hi\", \"background\": true}|background: true (expected: false; a background response is not served)",
            "{\"model\": \"m\", \"input\": \"hi\", \"conversation\": \"conv_1\"}|conversation: \"conv_1\" (expected: no such field; "
                    + "Sluice serves model, input, instructions, tools, tool_choice, text, reasoning and the sampling fields)"})
    void aBadValueIsRefusedByItsPath(String body, String message) {
        assertThatThrownBy(() -> ResponsesApi.decodeRequest(json(body)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void theDecodedRequestEncodesAsAChatCompletionsBodyOpenAisSdkReads() throws Exception {
        ObjectNode encoded = OpenAiChat.encodeRequest(ResponsesApi.decodeRequest(json(FULL_REQUEST)).chat());

        ChatCompletionCreateParams.Body body = ObjectMappers.jsonMapper()
                .readValue(encoded.toString(), ChatCompletionCreateParams.Body.class).validate();

        assertThat(body.responseFormat().orElseThrow().asJsonSchema().jsonSchema().name()).isEqualTo("weather");
        assertThat(body.reasoningEffort().orElseThrow().asString()).isEqualTo("low");
        assertThat(body.verbosity().orElseThrow().asString()).isEqualTo("low");
        assertThat(body.parallelToolCalls()).hasValue(false);
        assertThat(body.user()).hasValue("ada");
        assertThat(body.maxCompletionTokens()).hasValue(512L);
        assertThat(body.messages().get(3).asAssistant().toolCalls().orElseThrow()).hasSize(2);
        assertThat(body.messages().get(4).asTool().toolCallId()).isEqualTo("call_1");
    }

    @Test
    void aBodyOpenAisSdkWritesDecodes() throws Exception {
        ResponseCreateParams params = ResponseCreateParams.builder()
                .model("gpt-4.1")
                .instructions("Be brief.")
                .inputOfResponse(List.of(
                        ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder().role(EasyInputMessage.Role.USER)
                                .content("Weather in Paris?").build()),
                        ResponseInputItem.ofFunctionCall(ResponseFunctionToolCall.builder().callId("call_1").name("get_weather")
                                .arguments("{\"city\":\"Paris\"}").build()),
                        ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder().callId("call_1")
                                .output("18 C").build())))
                .addTool(FunctionTool.builder().name("get_weather").description("Weather for a city")
                        .parameters(FunctionTool.Parameters.builder().putAdditionalProperty("type", JsonValue.from("object")).build())
                        .strict(true).build())
                .toolChoice(ToolChoiceFunction.builder().name("get_weather").build())
                .text(ResponseTextConfig.builder().format(ResponseFormatTextJsonSchemaConfig.builder().name("weather")
                        .schema(ResponseFormatTextJsonSchemaConfig.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object")).build())
                        .strict(true).build()).build())
                .maxOutputTokens(100)
                .build();
        JsonNode body = json(ObjectMappers.jsonMapper().writeValueAsString(params._body()));

        ResponsesRequest request = ResponsesApi.decodeRequest(body);

        assertThat(request.chat().messages()).containsExactly(
                Message.text(Role.SYSTEM, "Be brief."),
                Message.text(Role.USER, "Weather in Paris?"),
                new Message(Role.ASSISTANT, List.of(new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}")), null),
                new Message(Role.TOOL, List.of(new ToolResult("call_1", List.of(new Text("18 C")), false)), null));
        assertThat(request.chat().tools()).containsExactly(new Tool("get_weather", "Weather for a city", json("{\"type\": \"object\"}"), true));
        assertThat(request.chat().toolChoice()).isEqualTo(ToolChoice.tool("get_weather"));
        assertThat(request.chat().sampling().maxTokens()).isEqualTo(100);
        assertThat(request.chat().extra().fields().get("response_format")).isEqualTo(json("""
                {"type": "json_schema", "json_schema": {"name": "weather", "schema": {"type": "object"}, "strict": true}}"""));
    }
}
