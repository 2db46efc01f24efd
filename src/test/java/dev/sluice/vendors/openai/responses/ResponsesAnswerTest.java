package dev.sluice.vendors.openai.responses;

import static dev.sluice.vendors.openai.responses.ResponsesRequestDecoderTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStatus;
import dev.sluice.model.ChatAnswer;
import dev.sluice.model.ContentPart;
import dev.sluice.model.ContentPart.Image;
import dev.sluice.model.ContentPart.Reasoning;
import dev.sluice.model.ContentPart.Text;
import dev.sluice.model.ContentPart.ToolCall;
import dev.sluice.model.FinishReason;
import dev.sluice.model.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A {@link ChatAnswer} as a {@code response} object, and a native upstream's response object back. */
class ResponsesAnswerTest {
    static final ResponseMeta META = new ResponseMeta("resp_abc", 1_741_476_542L, "gpt-4.1-2025-04-14");
    static final Usage USAGE = new Usage(100, 40, 30, 20, 12);

    static final ChatAnswer ANSWER = new ChatAnswer("resp_abc", "gpt-4.1-2025-04-14", List.of(
            new Reasoning("Weather needs a tool.", "sig-1", false),
            new Text("Let me "), new Text("check."),
            new ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"),
            new ToolCall("call_2", "get_time", "{}")), FinishReason.TOOL_CALLS, USAGE);

    static final String ENCODED = """
            {
              "id": "resp_abc", "object": "response", "created_at": 1741476542, "status": "completed",
              "error": null, "incomplete_details": null, "instructions": null, "max_output_tokens": null,
              "model": "gpt-4.1-2025-04-14",
              "output": [
                {"id": "rs_abc_0", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Weather needs a tool."}],
                 "encrypted_content": "sig-1"},
                {"id": "msg_abc_1", "type": "message", "status": "completed", "role": "assistant",
                 "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}]},
                {"id": "fc_abc_2", "type": "function_call", "status": "completed", "arguments": "{\\"city\\":\\"Paris\\"}",
                 "call_id": "call_1", "name": "get_weather"},
                {"id": "fc_abc_3", "type": "function_call", "status": "completed", "arguments": "{}", "call_id": "call_2", "name": "get_time"}
              ],
              "parallel_tool_calls": true, "previous_response_id": null, "reasoning": {"effort": null, "summary": null},
              "store": true, "temperature": null, "text": {"format": {"type": "text"}}, "tool_choice": "auto", "tools": [],
              "top_p": null, "truncation": "disabled",
              "usage": {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 30, "cache_write_tokens": 20}, "output_tokens": 40,
                        "output_tokens_details": {"reasoning_tokens": 12}, "total_tokens": 140},
              "user": null, "metadata": {}
            }
            """;

    /** A tree as it reads back from the wire, so numbers compare by value rather than by Java type. */
    static JsonNode wire(ObjectNode node) {
        return json(node.toString());
    }

    static ResponsesRequest plainRequest() {
        return ResponsesApi.decodeRequest(json("{\"model\": \"gpt-4.1\", \"input\": \"Weather in Paris?\"}"));
    }

    @Test
    void anAnswerEncodesAsAResponseObjectWithItsItemsInOrder() {
        assertThat(wire(ResponsesApi.encodeResponse(ANSWER, plainRequest(), META))).isEqualTo(json(ENCODED));
    }

    @Test
    void theResponseRepeatsTheRequestsSettings() {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(ResponsesRequestDecoderTest.FULL_REQUEST));

        ObjectNode response = ResponsesApi.encodeResponse(ANSWER, request, META);

        JsonNode body = json(ResponsesRequestDecoderTest.FULL_REQUEST);
        assertThat(response.get("instructions").textValue()).isEqualTo("You are terse.");
        for (String field : List.of("tools", "tool_choice", "text", "reasoning", "temperature", "top_p", "max_output_tokens",
                "parallel_tool_calls", "metadata", "user", "previous_response_id", "store")) {
            assertThat(json(response.get(field).toString())).as(field).isEqualTo(body.get(field));
        }
    }

    @Test
    void openAisSdkReadsTheResponse() throws Exception {
        ResponsesRequest request = ResponsesApi.decodeRequest(json(ResponsesRequestDecoderTest.FULL_REQUEST));
        ObjectNode encoded = ResponsesApi.encodeResponse(ANSWER, request, META);

        Response response = ObjectMappers.jsonMapper().readValue(encoded.toString(), Response.class).validate();

        assertThat(response.id()).isEqualTo("resp_abc");
        assertThat(response.status()).hasValue(ResponseStatus.COMPLETED);
        List<ResponseOutputItem> output = response.output();
        assertThat(output).hasSize(4);
        assertThat(output.get(0).asReasoning().summary().get(0).text()).isEqualTo("Weather needs a tool.");
        assertThat(output.get(0).asReasoning().encryptedContent()).hasValue("sig-1");
        assertThat(output.get(1).asMessage().content().get(0).asOutputText().text()).isEqualTo("Let me check.");
        assertThat(output.get(2).asFunctionCall().callId()).isEqualTo("call_1");
        assertThat(output.get(3).asFunctionCall().name()).isEqualTo("get_time");
        assertThat(response.usage().orElseThrow().inputTokens()).isEqualTo(100);
        assertThat(response.usage().orElseThrow().inputTokensDetails().cachedTokens()).isEqualTo(30);
        assertThat(response.usage().orElseThrow().inputTokensDetails().cacheWriteTokens()).isEqualTo(20);
        assertThat(response.usage().orElseThrow().outputTokensDetails().reasoningTokens()).isEqualTo(12);
        assertThat(response.usage().orElseThrow().totalTokens()).isEqualTo(140);
        assertThat(response.instructions().orElseThrow().asString()).isEqualTo("You are terse.");
        assertThat(response.tools()).hasSize(2);
        assertThat(response.toolChoice().asFunction().name()).isEqualTo("get_weather");
        assertThat(response.previousResponseId()).hasValue("resp_0");
        assertThat(response.maxOutputTokens()).hasValue(512L);
    }

    @ParameterizedTest
    @CsvSource({"LENGTH, max_output_tokens", "CONTENT_FILTER, content_filter"})
    void anAnswerCutShortIsIncompleteWithItsReason(FinishReason.Kind kind, String reason) throws Exception {
        ChatAnswer cut = new ChatAnswer("x", "m", List.of(new Text("Partial")), new FinishReason(kind, null), Usage.NONE);

        ObjectNode encoded = ResponsesApi.encodeResponse(cut, plainRequest(), META);

        assertThat(encoded.get("status").textValue()).isEqualTo("incomplete");
        assertThat(encoded.get("incomplete_details")).isEqualTo(json("{\"reason\": \"" + reason + "\"}"));
        Response response = ObjectMappers.jsonMapper().readValue(encoded.toString(), Response.class).validate();
        assertThat(response.status()).hasValue(ResponseStatus.INCOMPLETE);
        assertThat(response.incompleteDetails().orElseThrow().reason().orElseThrow().asString()).isEqualTo(reason);
        assertThat(ResponsesApi.decodeResponse(encoded).finishReason()).isEqualTo(new FinishReason(kind, null));
    }

    @Test
    void aRedactedAndAPlainReasoningPartKeepTheirFormsThroughTheResponse() {
        ChatAnswer answer = new ChatAnswer("resp_abc", "gpt-4.1-2025-04-14", List.of(new Reasoning("opaque", null, true),
                Reasoning.plain("Thinking."), new Text("Done.")), FinishReason.STOP, USAGE);

        ObjectNode encoded = ResponsesApi.encodeResponse(answer, plainRequest(), META);

        assertThat(wire((ObjectNode) encoded.get("output").get(0))).isEqualTo(json("""
                {"id": "rs_abc_0", "type": "reasoning", "summary": [], "encrypted_content": "opaque"}"""));
        assertThat(wire((ObjectNode) encoded.get("output").get(1))).isEqualTo(json("""
                {"id": "rs_abc_1", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Thinking."}]}"""));
        assertThat(ResponsesApi.decodeResponse(encoded)).isEqualTo(answer);
    }

    @Test
    void decodingTheEncodedResponseGivesBackTheAnswer() {
        ChatAnswer decoded = ResponsesApi.decodeResponse(ResponsesApi.encodeResponse(ANSWER, plainRequest(), META));

        assertThat(decoded).isEqualTo(new ChatAnswer("resp_abc", "gpt-4.1-2025-04-14", List.of(ANSWER.content().get(0),
                new Text("Let me check."), ANSWER.content().get(3), ANSWER.content().get(4)), FinishReason.TOOL_CALLS, USAGE));
    }

    @Test
    void aNativeResponseDecodesPassingOverHostedToolItems() {
        ChatAnswer answer = ResponsesApi.decodeResponse(json("""
                {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-4.1",
                 "output": [
                   {"type": "web_search_call", "id": "ws_1", "status": "completed"},
                   {"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "Hmm."}]},
                   {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Hi", "annotations": []}, {"type": "refusal", "refusal": "No."}]}],
                 "usage": {"input_tokens": 5, "output_tokens": 2, "total_tokens": 7}}
                """));

        assertThat(answer).isEqualTo(new ChatAnswer("resp_1", "gpt-4.1", List.<ContentPart>of(Reasoning.plain("Hmm."), new Text("Hi"),
                new Text("No.")), FinishReason.STOP, new Usage(5, 2, 0, 0, 0)));
    }

    @Test
    void aFailedNativeResponseIsAnErrorWithItsMessage() {
        assertThatThrownBy(() -> ResponsesApi.decodeResponse(json("""
                {"id": "resp_1", "status": "failed", "model": "m", "output": [],
                 "error": {"code": "server_error", "message": "The model crashed."}}""")))
                .isInstanceOf(IllegalStateException.class).hasMessage("The model crashed.");
    }

    @Test
    void anImageInTheAnswerIsRefusedByItsPlace() {
        ChatAnswer answer = new ChatAnswer("x", "m", List.of(new Text("See"), Image.atUrl("https://example.com/a.png", null)),
                FinishReason.STOP, Usage.NONE);

        assertThatThrownBy(() -> ResponsesApi.encodeResponse(answer, plainRequest(), META))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("content[1]: Image (expected: text, reasoning or tool calls in a response)");
    }
}
