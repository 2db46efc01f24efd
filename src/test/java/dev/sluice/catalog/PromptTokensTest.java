package dev.sluice.catalog;

import static dev.sluice.catalog.TokenEncoding.CL100K_BASE;
import static dev.sluice.catalog.TokenEncoding.O200K_BASE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.testing.Deployments;
import dev.sluice.wire.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PromptTokensTest {
    private final PromptTokens tokens = new PromptTokens();

    /** The example conversation of OpenAI's cookbook "How to count tokens with tiktoken", with its published counts. */
    private static final String COOKBOOK = """
            {"messages": [
              {"role": "system", "content": "You are a helpful, pattern-following assistant that translates corporate jargon into plain English."},
              {"role": "system", "name": "example_user", "content": "New synergies will help drive top-line growth."},
              {"role": "system", "name": "example_assistant", "content": "Things working well together will increase revenue."},
              {"role": "system", "name": "example_user", "content": "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage."},
              {"role": "system", "name": "example_assistant", "content": "Let's talk later when we're less busy about how to do better."},
              {"role": "user", "content": "This late pivot means we don't have time to boil the ocean for the client deliverable."}
            ]}""";

    private static ObjectNode body(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    @Test
    void countsAChatAsOpenAiDoesForGpt4AndGpt35() {
        assertThat(tokens.count(body(COOKBOOK), CL100K_BASE)).isEqualTo(129);
    }

    @Test
    void countsAChatAsOpenAiDoesForGpt4o() {
        assertThat(tokens.count(body(COOKBOOK), O200K_BASE)).isEqualTo(124);
    }

    @Test
    void oneMessageIsItsFramingRoleAndContentPlusTheReplyPrimer() {
        // 3 per message + "user" (1) + "hello world" (2) + 3 for the reply
        assertThat(tokens.count(body("""
                {"messages": [{"role": "user", "content": "hello world"}]}"""), CL100K_BASE)).isEqualTo(9);
    }

    @Test
    void aNameCostsOneTokenBeyondItsText() {
        int without = tokens.count(body("""
                {"messages": [{"role": "user", "content": "hello world"}]}"""), CL100K_BASE);
        int with = tokens.count(body("""
                {"messages": [{"role": "user", "name": "bob", "content": "hello world"}]}"""), CL100K_BASE);

        assertThat(with - without).isEqualTo(CL100K_BASE.count("bob") + PromptTokens.TOKENS_PER_NAME);
    }

    @Test
    void contentPartsCountTheirTextAndAFixedEstimatePerImage() {
        int parts = tokens.count(body("""
                {"messages": [{"role": "user", "content": [
                  {"type": "text", "text": "hello"},
                  {"type": "text", "text": " world"},
                  {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "low"}},
                  {"type": "image_url", "image_url": {"url": "https://example.com/b.png"}},
                  {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}
                ]}]}"""), CL100K_BASE);

        int text = CL100K_BASE.count("hello") + CL100K_BASE.count(" world");
        assertThat(parts).isEqualTo(3 + 1 + text + PromptTokens.IMAGE_TOKENS_LOW + PromptTokens.IMAGE_TOKENS + 3);
    }

    @Test
    void toolCallsCountTheirNamesAndArguments() {
        int count = tokens.count(body("""
                {"messages": [
                  {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]},
                  {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}
                ]}"""), CL100K_BASE);

        int assistant = 3 + CL100K_BASE.count("assistant") + CL100K_BASE.count("get_weather")
                + CL100K_BASE.count("{\"city\": \"Paris\"}");
        int tool = 3 + CL100K_BASE.count("tool") + CL100K_BASE.count("call_1") + CL100K_BASE.count("sunny");
        assertThat(count).isEqualTo(assistant + tool + 3);
    }

    @Test
    void toolDefinitionsCountAsTheirJsonText() {
        String function = "{\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\"}}";
        int without = tokens.count(body("""
                {"messages": [{"role": "user", "content": "hi"}]}"""), CL100K_BASE);
        int with = tokens.count(body("""
                {"messages": [{"role": "user", "content": "hi"}],
                 "tools": [{"type": "function", "function": %s}]}""".formatted(function)), CL100K_BASE);

        assertThat(with - without).isEqualTo(CL100K_BASE.count(function));
    }

    @Test
    void anthropicsTopLevelSystemCountsLikeContent() {
        int count = tokens.count(body("""
                {"system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
                 "messages": [{"role": "user", "content": "hi"}]}"""), CL100K_BASE);

        assertThat(count).isEqualTo(CL100K_BASE.count("Be brief.") + 3 + 1 + CL100K_BASE.count("hi") + 3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"prompt": "hello world"}                             | 2
            {"prompt": ["hello world", "hello world"]}            | 4
            {"prompt": [15339, 1917, 0]}                          | 3
            {"prompt": [[15339, 1917], [15339]]}                  | 3
            {"input": "hello world"}                              | 2
            {"input": ["hello", "world"]}                         | 2
            {"input": [[1, 2, 3, 4]]}                             | 4
            {"model": "x"}                                        | 0
            {"messages": []}                                      | 0
            """)
    void countsCompletionPromptsAndEmbeddingInputs(String json, int expected) {
        assertThat(tokens.count(body(json), CL100K_BASE)).isEqualTo(expected);
    }

    @Test
    void specialTokenMarkersInTextAreCountedAsText() {
        int count = tokens.count(body("""
                {"prompt": "<|endoftext|>"}"""), CL100K_BASE);

        assertThat(count).isGreaterThan(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            gpt-4o                    | O200K_BASE
            gpt-4o-mini-2024-07-18    | O200K_BASE
            chatgpt-4o-latest         | O200K_BASE
            gpt-4.1-nano              | O200K_BASE
            o1                        | O200K_BASE
            o3-mini                   | O200K_BASE
            o4-mini-2025-04-16        | O200K_BASE
            openai/gpt-4o             | O200K_BASE
            gpt-4                     | CL100K_BASE
            gpt-4-turbo               | CL100K_BASE
            gpt-3.5-turbo             | CL100K_BASE
            text-embedding-3-small    | CL100K_BASE
            claude-3-5-sonnet         | CL100K_BASE
            ollama-model              | CL100K_BASE
            o1x                       | CL100K_BASE
            """)
    void picksTheEncodingByModel(String model, TokenEncoding expected) {
        assertThat(TokenEncoding.forModel(model)).isEqualTo(expected);
    }

    @Test
    void namesPastTheRememberedOnesAreStillMatched() {
        for (int i = 0; i <= TokenEncoding.REMEMBERED_MODELS; i++) {
            TokenEncoding.forModel("caller-model-" + i);
        }

        assertThat(TokenEncoding.forModel("gpt-4o-past-the-memory")).isEqualTo(O200K_BASE);
        assertThat(TokenEncoding.forModel("gpt-4-past-the-memory")).isEqualTo(CL100K_BASE);
        assertThat(TokenEncoding.forModel("gpt-4o-past-the-memory")).isEqualTo(O200K_BASE);
    }

    @Test
    void aGroupIsCountedWithO200kOnlyWhenEveryDeploymentUsesIt() {
        assertThat(TokenEncoding.forDeployments(Deployments.of("model: openai/gpt-4o", "model: azure/gpt-4o-mini")))
                .isEqualTo(O200K_BASE);
        assertThat(TokenEncoding.forDeployments(Deployments.of("model: openai/gpt-4o", "model: openai/gpt-4")))
                .isEqualTo(CL100K_BASE);
    }
}
