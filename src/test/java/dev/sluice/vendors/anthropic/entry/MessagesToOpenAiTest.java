package dev.sluice.vendors.anthropic.entry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.wire.Json;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class MessagesToOpenAiTest {

    private static ObjectNode body(String json) throws IOException {
        return (ObjectNode) Json.parse(json.getBytes());
    }

    @Test
    void theConversationToolsAndSamplingCrossTheInternalModel() throws IOException {
        ObjectNode openAi = MessagesToOpenAi.body(body("""
                {"model":"m","max_tokens":100,"system":[{"type":"text","text":"be brief"}],"temperature":0.5,
                 "stop_sequences":["END"],"tools":[{"name":"t","input_schema":{"type":"object"}}],
                 "tool_choice":{"type":"any"},
                 "messages":[{"role":"user","content":"hi"},
                   {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{"a":1}}]},
                   {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"done"}]}]}"""));

        assertThat(openAi.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(openAi.at("/messages/0/content").asText()).isEqualTo("be brief");
        assertThat(openAi.at("/messages/2/tool_calls/0/id").asText()).isEqualTo("toolu_1");
        assertThat(openAi.at("/messages/3/role").asText()).isEqualTo("tool");
        assertThat(openAi.at("/messages/3/tool_call_id").asText()).isEqualTo("toolu_1");
        assertThat(openAi.at("/tools/0/function/name").asText()).isEqualTo("t");
        assertThat(openAi.get("tool_choice").asText()).isEqualTo("required");
        assertThat(openAi.get("stop").get(0).asText()).isEqualTo("END");
        assertThat(openAi.get("max_completion_tokens").asInt()).isEqualTo(100);
        assertThat(openAi.get("temperature").asDouble()).isEqualTo(0.5);
    }

    @Test
    void messagesFieldsWithAnOpenAiCounterpartAreMapped() throws IOException {
        ObjectNode openAi = MessagesToOpenAi.body(body("""
                {"model":"m","max_tokens":10,"stream":true,"metadata":{"user_id":"u-7"},"top_k":3,
                 "thinking":{"type":"enabled","budget_tokens":2048},
                 "tools":[{"name":"t","input_schema":{"type":"object"}}],
                 "tool_choice":{"type":"auto","disable_parallel_tool_use":true},
                 "messages":[{"role":"user","content":"hi"}]}"""));

        assertThat(openAi.get("user").asText()).isEqualTo("u-7");
        assertThat(openAi.get("reasoning_effort").asText()).isEqualTo("medium");
        assertThat(openAi.get("parallel_tool_calls").asBoolean()).isFalse();
        assertThat(openAi.at("/stream_options/include_usage").asBoolean()).isTrue();
        assertThat(openAi.has("top_k")).as("OpenAI has no top_k").isFalse();
        assertThat(openAi.has("metadata")).isFalse();
    }

    @Test
    void thinkingBudgetsMapToEffortsOnBothSidesOfEachBound() throws IOException {
        for (int[] budgetAndLevel : new int[][] {{1024, 0}, {1025, 1}, {4096, 1}, {4097, 2}}) {
            ObjectNode openAi = MessagesToOpenAi.body(body("""
                    {"model":"m","max_tokens":10,"thinking":{"type":"enabled","budget_tokens":%d},
                     "messages":[{"role":"user","content":"hi"}]}""".formatted(budgetAndLevel[0])));
            assertThat(openAi.get("reasoning_effort").asText()).as("budget " + budgetAndLevel[0])
                    .isEqualTo(new String[] {"low", "medium", "high"}[budgetAndLevel[1]]);
        }
        assertThat(MessagesToOpenAi.body(body("""
                {"model":"m","max_tokens":10,"thinking":{"type":"disabled"},"messages":[{"role":"user","content":"hi"}]}"""))
                .has("reasoning_effort")).isFalse();
    }

    @Test
    void theGatewaysOwnFieldsAreKeptForItsRules() throws IOException {
        ObjectNode openAi = MessagesToOpenAi.body(body("""
                {"model":"m","max_tokens":10,"fallbacks":["other"],"num_retries":2,"mock_testing_fallbacks":true,
                 "messages":[{"role":"user","content":"hi"}]}"""));

        assertThat(openAi.get("fallbacks").get(0).asText()).isEqualTo("other");
        assertThat(openAi.get("num_retries").asInt()).isEqualTo(2);
        assertThat(openAi.get("mock_testing_fallbacks").asBoolean()).isTrue();
    }

    @Test
    void aMalformedBodyIsRefusedNamingItsPath() {
        assertThatThrownBy(() -> MessagesToOpenAi.body(body("""
                {"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"video"}]}]}""")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages[0].content[0].type");
    }
}
