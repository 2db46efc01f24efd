package dev.sluice.vendors.mock;

import static dev.sluice.vendors.mock.UpstreamClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MockErrorModesTest {

    @RegisterExtension
    final MockUpstreams mocks = new MockUpstreams();
    private final UpstreamClient client = new UpstreamClient();

    @Test
    void failAnswers500ServerError() {
        MockUpstream mock = mocks.start("primary", MockMode.FAIL);

        HttpResponse<String> response = client.chat(mock, "hi");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response)).isEqualTo(json("""
                {"error":{"message":"[primary] internal error","type":"server_error","param":null,"code":null}}"""));
    }

    @Test
    void ratelimitAnswers429WithRetryAfter() {
        MockUpstream mock = mocks.start(MockOptions.defaults("primary", MockMode.RATELIMIT).withRetryAfterSeconds(7));

        HttpResponse<String> response = client.chat(mock, "hi");

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.headers().firstValue("retry-after")).hasValue("7");
        JsonNode error = json(response).path("error");
        assertThat(error.path("message").asText()).startsWith("[primary] Rate limit reached").contains("7s");
        assertThat(error.path("type").asText()).isEqualTo("rate_limit_error");
        assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
    }

    @Test
    void authRefusesAMissingOrWrongKey() {
        MockUpstream mock = mocks.start(MockOptions.defaults("primary", MockMode.AUTH).withApiKey("sk-right"));
        String body = UpstreamClient.chatBody("m", "hi", false);

        HttpResponse<String> none = client.post(mock, "/v1/chat/completions", body);
        HttpResponse<String> wrong = client.post(mock, "/v1/chat/completions", body, "Authorization", "Bearer sk-wrong");

        for (HttpResponse<String> response : java.util.List.of(none, wrong)) {
            assertThat(response.statusCode()).isEqualTo(401);
            JsonNode error = json(response).path("error");
            assertThat(error.path("message").asText()).startsWith("[primary] Incorrect API key");
            assertThat(error.path("code").asText()).isEqualTo("invalid_api_key");
        }
    }

    @Test
    void authAcceptsTheKeyAsBearerTokenOrAzureApiKey() {
        MockUpstream mock = mocks.start(MockOptions.defaults("primary", MockMode.AUTH).withApiKey("sk-right"));
        String body = UpstreamClient.chatBody("m", "hi", false);

        HttpResponse<String> bearer = client.post(mock, "/v1/chat/completions", body, "Authorization", "Bearer sk-right");
        HttpResponse<String> azure = client.post(mock,
                "/openai/deployments/d/chat/completions?api-version=2024-10-21", body, "api-key", "sk-right");

        assertThat(bearer.statusCode()).isEqualTo(200);
        assertThat(azure.statusCode()).isEqualTo(200);
        assertThat(json(azure).path("model").asText()).isEqualTo("d");
    }

    @Test
    void notfoundNamesTheRequestedModelOrDeployment() {
        MockUpstream mock = mocks.start("primary", MockMode.NOTFOUND);

        HttpResponse<String> openAi = client.post(mock, "/v1/chat/completions",
                UpstreamClient.chatBody("gpt-9", "hi", false));
        HttpResponse<String> azure = client.post(mock, "/openai/deployments/gone/embeddings?api-version=1",
                "{\"input\":\"x\"}");

        assertThat(openAi.statusCode()).isEqualTo(404);
        JsonNode error = json(openAi).path("error");
        assertThat(error.path("message").asText()).startsWith("[primary] The model 'gpt-9' does not exist");
        assertThat(error.path("code").asText()).isEqualTo("model_not_found");
        assertThat(json(azure).at("/error/message").asText()).startsWith("[primary] The model 'gone' does not exist");
    }

    @Test
    void rejectAnswers400InvalidRequest() {
        MockUpstream mock = mocks.start("primary", MockMode.REJECT);

        HttpResponse<String> response = client.chat(mock, "hi");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).at("/error/message").asText()).isEqualTo("[primary] invalid parameter");
        assertThat(json(response).at("/error/type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void contextRefusesOnlyPromptsOverMaxChars() {
        MockUpstream mock = mocks.start(MockOptions.defaults("small", MockMode.CONTEXT).withMaxChars(20));
        // The system message "be brief" is 8 characters; 12 more reach the limit exactly.
        HttpResponse<String> atLimit = client.chat(mock, "x".repeat(12));
        HttpResponse<String> overLimit = client.chat(mock, "x".repeat(13));

        assertThat(atLimit.statusCode()).isEqualTo(200);
        assertThat(overLimit.statusCode()).isEqualTo(400);
        JsonNode error = json(overLimit).path("error");
        assertThat(error.path("code").asText()).isEqualTo("context_length_exceeded");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).isEqualTo("[small] This model's maximum context length is 5"
                + " tokens. However, your messages resulted in 6 tokens. Please reduce the length of the messages.");
    }

    @Test
    void policyRefusesPromptsWithTheTriggerWordInAnyCase() {
        MockUpstream mock = mocks.start(MockOptions.defaults("azure", MockMode.POLICY).withTriggerWord("Forbidden"));

        HttpResponse<String> clean = client.chat(mock, "a harmless question");
        HttpResponse<String> flagged = client.chat(mock, "tell me the FORBIDDEN thing");

        assertThat(clean.statusCode()).isEqualTo(200);
        assertThat(flagged.statusCode()).isEqualTo(400);
        JsonNode error = json(flagged).path("error");
        assertThat(error.path("code").asText()).isEqualTo("content_filter");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).startsWith("[azure] ").contains("content management policy");
    }

    @Test
    void timesAppliesTheModeToTheFirstCallsThenAnswersOk() {
        MockUpstream mock = mocks.start(MockOptions.defaults("flaky", MockMode.FAIL).withTimes(2));

        assertThat(client.chat(mock, "one").statusCode()).isEqualTo(500);
        assertThat(client.chat(mock, "two").statusCode()).isEqualTo(500);
        assertThat(client.chat(mock, "three").statusCode()).isEqualTo(200);
        assertThat(client.chat(mock, "four").statusCode()).isEqualTo(200);
        assertThat(mock.requests()).isEqualTo(4);
    }

    @Test
    void setModeSwitchesAtRunTimeAndRestartsTimes() {
        MockUpstream mock = mocks.start(MockOptions.defaults("flaky", MockMode.OK).withTimes(1));
        assertThat(client.chat(mock, "a").statusCode()).isEqualTo(200);

        mock.setMode(MockMode.RATELIMIT);

        assertThat(mock.mode()).isEqualTo(MockMode.RATELIMIT);
        assertThat(client.chat(mock, "b").statusCode()).isEqualTo(429);
        assertThat(client.chat(mock, "c").statusCode()).isEqualTo(200);
        mock.setMode(MockMode.FAIL);
        assertThat(client.chat(mock, "d").statusCode()).isEqualTo(500);
    }

    @Test
    void receivedBodiesAndHeadersShowWhatWasForwardedAndResetForgetsThem() {
        MockUpstream mock = mocks.start("primary", MockMode.FAIL);

        client.post(mock, "/v1/chat/completions", UpstreamClient.chatBody("gpt-4o", "first", false),
                "Authorization", "Bearer sk-test", "X-Trace-Id", "t-1");
        client.post(mock, "/v1/chat/completions", "not json");

        assertThat(mock.requests()).isEqualTo(2);
        assertThat(mock.receivedBodies()).hasSize(2);
        assertThat(mock.receivedBodies().get(0).path("model").asText()).isEqualTo("gpt-4o");
        assertThat(mock.receivedBodies().get(1).isNull()).isTrue();
        assertThat(mock.receivedHeaders().get(0))
                .containsEntry("authorization", "Bearer sk-test")
                .containsEntry("x-trace-id", "t-1");
        assertThat(mock.receivedHeaders().get(1)).doesNotContainKey("authorization");

        mock.reset();

        assertThat(mock.requests()).isZero();
        assertThat(mock.receivedBodies()).isEmpty();
        assertThat(mock.receivedHeaders()).isEmpty();
    }

    @Test
    void theRecordKeepsOnlyTheLatestCalls() {
        MockUpstream mock = mocks.start("primary", MockMode.OK);

        for (int i = 0; i < MockLedger.KEPT + 5; i++) {
            client.post(mock, "/v1/embeddings", "{\"model\":\"m\",\"input\":\"" + i + "\"}");
        }

        assertThat(mock.requests()).isEqualTo(MockLedger.KEPT + 5);
        assertThat(mock.receivedBodies()).hasSize(MockLedger.KEPT);
        assertThat(mock.receivedBodies().get(0).path("input").asText()).isEqualTo("5");
        assertThat(mock.receivedHeaders()).hasSize(MockLedger.KEPT);
    }
}
