package dev.sluice.admin;

import static dev.sluice.admin.SpendLogsApiTest.ANSWER;
import static dev.sluice.admin.SpendLogsApiTest.json;
import static dev.sluice.admin.SpendLogsApiTest.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;

/** {@code POST /spend/calculate}: priced as the gateway charges a call, for a model group, a deployment or an answer. */
class SpendCalculateApiTest {
    private static final String MESSAGES = "[{\"role\": \"user\", \"content\": \"How much is this question going to cost?\"}]";

    private static double cost(TestGateway gateway, String body) throws IOException {
        HttpResponse<String> answer = post(gateway, "/spend/calculate", body);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode cost = json(answer.body());
        assertThat(cost.size()).as(answer.body()).isEqualTo(1);
        return cost.get("cost").doubleValue();
    }

    @StoreTest
    void messagesArePricedAtTheGroupsInputPriceAndAnAnswerAtItsUsage(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = TestGateway.start(SpendLogsApiTest.config(store, upstream))) {
            ObjectNode prompt = (ObjectNode) json("{\"messages\": " + MESSAGES + "}");
            int tokens = new PromptTokens().count(prompt, TokenEncoding.forModel("m"));
            assertThat(tokens).isGreaterThan(10);
            assertThat(cost(gateway, "{\"model\": \"gpt-a\", \"messages\": " + MESSAGES + "}"))
                    .isCloseTo(tokens * 0.0001, within(1e-12));

            // 1000 prompt tokens at 0.0001 and 500 completion tokens at 0.0002, by any name of the deployment.
            for (String model : List.of("gpt-a", "openai/m", "m", "dep-a")) {
                assertThat(cost(gateway, """
                        {"completion_response": {"id": "chatcmpl-1", "object": "chat.completion", "model": "%s",
                         "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}}}""".formatted(model)))
                        .as(model).isEqualTo(0.2);
            }
        }
    }

    @StoreTest
    void badBodiesAreRefusedNamingTheField(TestDatabase store) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", ANSWER);
                TestGateway gateway = TestGateway.start(SpendLogsApiTest.config(store, upstream))) {
            refused(gateway, "{}", "model", "missing_required_parameter");
            refused(gateway, "{\"model\": \"gpt-a\"}", "messages", "missing_required_parameter");
            refused(gateway, "{\"model\": \"gpt-a\", \"messages\": \"hi\"}", "messages", "invalid_value");
            refused(gateway, "{\"model\": \"gpt-9\", \"messages\": " + MESSAGES + "}", "model", "model_not_found");
            refused(gateway, "{\"completion_response\": {\"model\": \"gpt-a\"}}", "completion_response.usage",
                    "missing_required_parameter");
            refused(gateway, "{\"completion_response\": {\"usage\": {\"prompt_tokens\": 1}}}", "completion_response.model",
                    "missing_required_parameter");
            refused(gateway, "{\"completion_response\": {\"model\": \"gpt-a\", \"usage\": {\"prompt_tokens\": -1}}}",
                    "completion_response.usage.prompt_tokens", "invalid_value");
            refused(gateway, "{\"completion_response\": [1]}", "completion_response", "invalid_type");

            String key = json(post(gateway, "/key/generate", "{}").body()).get("key").asText();
            HttpResponse<String> byKey = gateway.post("/spend/calculate", "{\"model\": \"gpt-a\", \"messages\": " + MESSAGES + "}",
                    "Authorization", "Bearer " + key);
            assertThat(byKey.statusCode()).isEqualTo(403);
        }
    }

    private static void refused(TestGateway gateway, String body, String param, String code) throws IOException {
        HttpResponse<String> answer = post(gateway, "/spend/calculate", body);
        assertThat(answer.statusCode()).as(body + ": " + answer.body()).isEqualTo(400);
        JsonNode error = json(answer.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("param").asText()).as(error.toString()).isEqualTo(param);
        assertThat(error.get("code").asText()).as(error.toString()).isEqualTo(code);
    }
}
