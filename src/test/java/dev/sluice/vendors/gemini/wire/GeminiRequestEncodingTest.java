package dev.sluice.vendors.gemini.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.vendors.openai.wire.OpenAiChat;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OpenAI chat requests, decoded to the internal model, written as Gemini's {@code GenerateContentRequest}. */
class GeminiRequestEncodingTest {

    static JsonNode json(String text) {
        try {
            return Json.parse(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static GeminiRequest encode(String openAiBody) {
        return GeminiChat.encodeRequest(OpenAiChat.decodeRequest(json(openAiBody)));
    }

    @Test
    void everySystemAndDeveloperMessageWhereverItStandsBecomesSystemInstructionInOrder() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [
                  {"role": "system", "content": "Be brief."},
                  {"role": "user", "content": "Hi"},
                  {"role": "developer", "content": "Answer in French."},
                  {"role": "assistant", "content": "Salut"},
                  {"role": "system", "content": [{"type": "text", "text": "No emoji."}]},
                  {"role": "user", "content": "Again"}]}""");
        assertThat(request.body().get("systemInstruction")).isEqualTo(json("""
                {"parts": [{"text": "Be brief."}, {"text": "Answer in French."}, {"text": "No emoji."}]}"""));
        assertThat(request.body().get("contents")).isEqualTo(json("""
                [{"role": "user", "parts": [{"text": "Hi"}]},
                 {"role": "model", "parts": [{"text": "Salut"}]},
                 {"role": "user", "parts": [{"text": "Again"}]}]"""));
    }

    @Test
    void consecutiveTurnsOfOneRoleAreMergedSoRolesAlternate() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [
                  {"role": "user", "content": "one"}, {"role": "system", "content": "s"}, {"role": "user", "content": "two"},
                  {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}]}""");
        assertThat(request.body().get("contents")).isEqualTo(json("""
                [{"role": "user", "parts": [{"text": "one"}, {"text": "two"}]},
                 {"role": "model", "parts": [{"text": "a"}, {"text": "b"}]}]"""));
    }

    @Test
    void emptyTextPartsAreLeftOutSinceGeminiRefusesThem() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "call it"},
                  {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                  {"role": "tool", "tool_call_id": "c1", "content": "ok"}, {"role": "assistant", "content": ""}],
                 "tool_choice": "auto"}""");
        assertThat(request.body().at("/contents/1/parts")).isEqualTo(json("[{\"functionCall\": {\"name\": \"f\", \"args\": {}}}]"));
        assertThat(request.body().get("contents")).hasSize(3);
        assertThat(request.body().has("toolConfig")).isFalse();
    }

    @Test
    void dataUrlsAreInlineDataAndHttpsUrlsAreFileDataWithTheExtensionsType() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": [
                  {"type": "text", "text": "Compare"},
                  {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                  {"type": "image_url", "image_url": {"url": "https://example.com/cat.JPG?size=large", "detail": "high"}}]}]}""");
        assertThat(request.body().at("/contents/0/parts")).isEqualTo(json("""
                [{"text": "Compare"},
                 {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                 {"fileData": {"mimeType": "image/jpeg", "fileUri": "https://example.com/cat.JPG?size=large"}}]"""));
    }

    @Test
    void aUrlWhoseTypeCannotBeToldIsRefusedRatherThanSentWithoutOne() {
        assertThatThrownBy(() -> encode("""
                {"model": "m", "messages": [{"role": "user", "content": [
                  {"type": "image_url", "image_url": {"url": "https://example.com/render"}}]}]}"""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("image_url.url: https://example.com/render (expected: a data URL, or a URL whose path ends in");
    }

    @Test
    void toolsAreOneFunctionDeclarationsListWithTheirSchemasCut() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "weather?"}],
                 "tools": [
                   {"type": "function", "function": {"name": "get_weather", "description": "Weather now", "strict": true,
                     "parameters": {"type": "object", "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#",
                       "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
                   {"type": "function", "function": {"name": "now", "parameters": {"type": "object", "properties": {}}}}]}""");
        assertThat(request.body().get("tools")).isEqualTo(json("""
                [{"functionDeclarations": [
                  {"name": "get_weather", "description": "Weather now",
                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
                  {"name": "now"}]}]"""));
        assertThat(request.body().has("toolConfig")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"auto\"|{\"mode\": \"AUTO\"}",
            "\"none\"|{\"mode\": \"NONE\"}",
            "\"required\"|{\"mode\": \"ANY\"}",
            "{\"type\": \"function\", \"function\": {\"name\": \"f\"}}|{\"mode\": \"ANY\", \"allowedFunctionNames\": [\"f\"]}"})
    void toolChoiceIsFunctionCallingConfig(String toolChoice, String config) {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}],
                 "tools": [{"type": "function", "function": {"name": "f"}}], "tool_choice": %s}""".formatted(toolChoice));
        assertThat(request.body().at("/toolConfig/functionCallingConfig")).isEqualTo(json(config));
    }

    @Test
    void parallelToolCallsAndTheirResultsAreBoundByFunctionNameInOneTurnEach() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [
                  {"role": "user", "content": "Weather and time in Paris?"},
                  {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                    {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": ""}}]},
                  {"role": "tool", "tool_call_id": "call_b", "content": "12:00"},
                  {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}]}""");
        assertThat(request.body().get("contents")).isEqualTo(json("""
                [{"role": "user", "parts": [{"text": "Weather and time in Paris?"}]},
                 {"role": "model", "parts": [
                   {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                   {"functionCall": {"name": "get_time", "args": {}}}]},
                 {"role": "user", "parts": [
                   {"functionResponse": {"name": "get_time", "response": {"content": "12:00"}}},
                   {"functionResponse": {"name": "get_weather", "response": {"content": "sunny"}}}]}]"""));
    }

    @Test
    void aThoughtSignatureCarriedInTheToolCallIdGoesBackOnItsFunctionCall() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"},
                  {"role": "assistant", "tool_calls": [
                    {"id": "call_1__thought__c2lnbmF0dXJl", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                  {"role": "tool", "tool_call_id": "call_1__thought__c2lnbmF0dXJl", "content": "done"}]}""");
        assertThat(request.body().at("/contents/1/parts/0")).isEqualTo(json("""
                {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2lnbmF0dXJl"}"""));
        assertThat(request.body().at("/contents/2/parts/0/functionResponse/name").asText()).isEqualTo("f");
    }

    @Test
    void aToolResultForNoKnownCallIsRefusedNamingItsId() {
        assertThatThrownBy(() -> encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"},
                  {"role": "tool", "tool_call_id": "call_zz", "content": "r"}]}"""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messages[1]").hasMessageContaining("call_zz");
    }

    @Test
    void malformedToolCallArgumentsAreRefusedSinceGeminiTakesAnObject() {
        assertThatThrownBy(() -> encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"},
                  {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "[1"}}]}]}"""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("arguments");
    }

    @Test
    void jsonSchemaResponseFormatIsResponseSchemaWithWhatGeminiRejectsStripped() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}],
                 "response_format": {"type": "json_schema", "json_schema": {"name": "person", "strict": true, "schema": {
                   "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
                   "$defs": {"Pet": {"type": "object", "properties": {"kind": {"const": "cat"}}, "additionalProperties": false}},
                   "properties": {
                     "name": {"type": "string", "minLength": 1},
                     "nick": {"type": ["string", "null"]},
                     "age": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                     "pet": {"$ref": "#/$defs/Pet"},
                     "tags": {"type": "array", "items": {"type": "string", "additionalProperties": false}}},
                   "required": ["name"]}}}}""");
        assertThat(request.body().at("/generationConfig/responseMimeType").asText()).isEqualTo("application/json");
        assertThat(request.body().at("/generationConfig/responseSchema")).isEqualTo(json("""
                {"type": "object",
                 "properties": {
                   "name": {"type": "string", "minLength": 1},
                   "nick": {"type": "string", "nullable": true},
                   "age": {"type": "integer", "nullable": true},
                   "pet": {"type": "object", "properties": {"kind": {"enum": ["cat"]}}},
                   "tags": {"type": "array", "items": {"type": "string"}}},
                 "required": ["name"]}"""));
    }

    @Test
    void jsonObjectResponseFormatAsksOnlyForJson() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_object"}}""");
        assertThat(request.body().get("generationConfig")).isEqualTo(json("{\"responseMimeType\": \"application/json\"}"));
    }

    @Test
    void samplingSettingsAreGenerationConfig() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "temperature": 0.2, "top_p": 0.9,
                 "max_tokens": 100, "stop": "END", "seed": 7, "presence_penalty": 0.5, "frequency_penalty": 0.25, "n": 1}""");
        assertThat(request.body().get("generationConfig")).isEqualTo(json("""
                {"temperature": 0.2, "topP": 0.9, "maxOutputTokens": 100, "stopSequences": ["END"], "seed": 7,
                 "presencePenalty": 0.5, "frequencyPenalty": 0.25}"""));
        assertThat(request.unsupported()).isEmpty();
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokens() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "max_tokens": 10, "max_completion_tokens": 20}""");
        assertThat(request.body().at("/generationConfig/maxOutputTokens").asInt()).isEqualTo(20);
        assertThat(request.unsupported()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"none, 0, false", "minimal, 128, true", "low, 1024, true", "medium, 2048, true", "high, 4096, true"})
    void reasoningEffortIsAThinkingBudgetAsLiteLlmMapsIt(String effort, int budget, boolean includeThoughts) {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "reasoning_effort": "%s"}""".formatted(effort));
        assertThat(request.body().at("/generationConfig/thinkingConfig/thinkingBudget").asInt()).isEqualTo(budget);
        assertThat(request.body().at("/generationConfig/thinkingConfig/includeThoughts").asBoolean(false)).isEqualTo(includeThoughts);
    }

    @Test
    void anUnknownReasoningEffortIsRefused() {
        assertThatThrownBy(() -> encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "reasoning_effort": "extreme"}"""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reasoning_effort");
    }

    @Test
    void parametersGeminiCannotTakeAreNamedAndLeftOut() {
        GeminiRequest request = encode("""
                {"model": "m", "messages": [{"role": "user", "content": "x"}], "logit_bias": {"1": 2}, "user": "u-1", "n": 3,
                 "parallel_tool_calls": true, "stream_options": {"include_usage": true}}""");
        assertThat(request.unsupported()).as("user is never refused, as in LiteLLM").containsExactly("logit_bias", "n");
        assertThat(request.body().has("generationConfig")).isFalse();
        assertThat(request.body().toString()).doesNotContain("u-1");
    }
}
