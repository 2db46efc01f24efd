package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MockOkAnswersTest {

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void chatAnswerEchoesTheLastUserMessageUnderTheMocksName() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/v1/chat/completions", """
                {"model":"gpt-4o","messages":[
                  {"role":"user","content":"first question"},
                  {"role":"assistant","content":"an answer"},
                  {"role":"user","content":"Order OD-2049 is still in transit, please check it"}]}""");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode body = json(response);
        assertThat(body.path("id").asText()).startsWith("chatcmpl-");
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        assertThat(body.path("created").asLong()).isPositive();
        assertThat(body.path("model").asText()).isEqualTo("gpt-4o");
        JsonNode choice = body.path("choices").path(0);
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("message").path("content").asText())
                .isEqualTo("[primary] you said: Order OD-2049 is still in transit, pleas");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
    }

    @Test
    void usageEstimatesAQuarterTokenPerCharacterOfEveryMessage() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        // 8 + 16 prompt characters -> 6 tokens; "[primary] you said: 0123456789abcdef" is 36 -> 9.
        JsonNode usage = json(client.post(mock, "/v1/chat/completions", """
                {"model":"m","messages":[{"role":"system","content":"12345678"},
                {"role":"user","content":"0123456789abcdef"}]}""")).path("usage");

        assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(6);
        assertThat(usage.path("completion_tokens").asInt()).isEqualTo(9);
        assertThat(usage.path("total_tokens").asInt()).isEqualTo(15);
    }

    @Test
    void contentPartsCountAsText() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/chat/completions", """
                {"model":"m","messages":[{"role":"user","content":[
                  {"type":"text","text":"look at "},{"type":"image_url","image_url":{"url":"x"}},
                  {"type":"text","text":"this"}]}]}"""));

        assertThat(body.at("/choices/0/message/content").asText()).isEqualTo("[primary] you said: look at this");
    }

    @Test
    void chatWorksWithoutTheV1Prefix() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> response = client.post(mock, "/chat/completions",
                UpstreamClient.chatBody("m", "hi", false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).at("/choices/0/message/content").asText()).isEqualTo("[primary] you said: hi");
    }

    @Test
    void completionHasTheTextCompletionShape() {
        MockUpstream mock = mocks.start("backup", MockMode.OK);

        JsonNode body = json(client.post(mock, "/v1/completions",
                "{\"model\":\"davinci\",\"prompt\":\"say hello\"}"));

        assertThat(body.path("object").asText()).isEqualTo("text_completion");
        assertThat(body.path("model").asText()).isEqualTo("davinci");
        assertThat(body.at("/choices/0/text").asText()).isEqualTo("[backup] you said: say hello");
        assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(body.at("/usage/total_tokens").asInt()).isEqualTo(3 + 7);
    }

    @Test
    void embeddingsAreSmallDeterministicVectorsOnePerInput() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);
        String request = "{\"model\":\"text-embedding-3-small\",\"input\":[\"alpha\",\"beta\"]}";

        JsonNode first = json(client.post(mock, "/v1/embeddings", request));
        JsonNode again = json(client.post(mock, "/v1/embeddings", request));

        assertThat(first.path("object").asText()).isEqualTo("list");
        assertThat(first.path("model").asText()).isEqualTo("text-embedding-3-small");
        assertThat(first.path("data")).hasSize(2);
        JsonNode alpha = first.path("data").path(0);
        assertThat(alpha.path("object").asText()).isEqualTo("embedding");
        assertThat(alpha.path("index").asInt()).isZero();
        assertThat(alpha.path("embedding")).hasSize(8);
        alpha.path("embedding").forEach(value -> assertThat(value.asDouble()).isBetween(-1.0, 1.0));
        assertThat(first.path("data").path(1).path("embedding")).isNotEqualTo(alpha.path("embedding"));
        assertThat(again.path("data")).isEqualTo(first.path("data"));
        assertThat(first.at("/usage/prompt_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void azureDeploymentPathsAnswerWithTheDeploymentAsModel() {
        MockUpstream mock = mocks.start("azure", MockMode.OK);

        JsonNode chat = json(client.post(mock,
                "/openai/deployments/gpt4o-eu/chat/completions?api-version=2024-10-21",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"));
        JsonNode completion = json(client.post(mock,
                "/openai/deployments/instruct/completions?api-version=2024-10-21", "{\"prompt\":\"hi\"}"));
        JsonNode embeddings = json(client.post(mock,
                "/openai/deployments/embed/embeddings?api-version=2024-10-21", "{\"input\":\"hi\"}"));

        assertThat(chat.path("model").asText()).isEqualTo("gpt4o-eu");
        assertThat(chat.at("/choices/0/message/content").asText()).isEqualTo("[azure] you said: hi");
        assertThat(completion.path("model").asText()).isEqualTo("instruct");
        assertThat(embeddings.path("model").asText()).isEqualTo("embed");
        assertThat(mock.requests()).isEqualTo(3);
    }

    @Test
    void modelsListsOneModelAndIsNotAModelCall() {
        MockUpstream mock = mocks.start("primary", MockMode.FAIL);

        HttpResponse<String> response = client.get(mock, "/v1/models");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).path("object").asText()).isEqualTo("list");
        assertThat(json(response).at("/data/0/owned_by").asText()).isEqualTo("primary");
        assertThat(mock.requests()).isZero();
    }

    @Test
    void rootSaysWhichMockThisIsAndItsMode() {
        MockUpstream mock = mocks.start("backup", MockMode.RATELIMIT);

        assertThat(json(client.get(mock, "/")))
                .isEqualTo(json("{\"name\":\"backup\",\"mode\":\"ratelimit\"}"));
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsRefusedWith400() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> garbage = client.post(mock, "/v1/chat/completions", "{not json");
        HttpResponse<String> array = client.post(mock, "/v1/chat/completions", "[1,2]");
        HttpResponse<String> empty = client.post(mock, "/v1/embeddings", "");

        for (HttpResponse<String> response : java.util.List.of(garbage, array, empty)) {
            assertThat(response.statusCode()).isEqualTo(400);
            JsonNode error = json(response).path("error");
            assertThat(error.path("message").asText()).startsWith("[primary] We could not parse the JSON body");
            assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(error.has("param")).isTrue();
            assertThat(error.has("code")).isTrue();
        }
        assertThat(mock.requests()).isEqualTo(3);
    }

    @Test
    void unknownRoutesAndWrongMethodsAre404InOpenAisShape() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        HttpResponse<String> unknown = client.post(mock, "/v1/images/variations", "{}");
        HttpResponse<String> wrongMethod = client.get(mock, "/v1/chat/completions");

        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).at("/error/message").asText())
                .isEqualTo("[primary] Invalid URL (POST /v1/images/variations)");
        assertThat(json(unknown).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(wrongMethod.statusCode()).isEqualTo(404);
        assertThat(json(wrongMethod).at("/error/message").asText())
                .isEqualTo("[primary] Invalid URL (GET /v1/chat/completions)");
        assertThat(mock.requests()).isZero();
    }

    @Test
    void oneKeptAliveConnectionServesManyCalls() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        for (int i = 0; i < 5; i++) {
            assertThat(client.chat(mock, "call " + i).statusCode()).isEqualTo(200);
        }

        assertThat(mock.requests()).isEqualTo(5);
        assertThat(mock.openConnections()).isEqualTo(1);
    }
}
