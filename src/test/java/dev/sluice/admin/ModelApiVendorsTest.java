package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Deployments of vendors that speak their own APIs, added through the model API while the
 * gateway runs: served from the next call, with Bedrock's endpoint override held to the rules
 * of an {@code api_base}, and a provider Sluice does not serve refused outright.
 */
class ModelApiVendorsTest {
    private static final String MASTER = "sk-admin";

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes()).path("error");
    }

    @Test
    void anthropicAndBedrockDeploymentsAddedAtRunTimeAreServedAndAnUnservedProviderIsRefused() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream claude = MockUpstream.start(MockOptions.defaults("claude", MockMode.OK).withApi(MockApi.ANTHROPIC));
                MockUpstream bedrock = MockUpstream.start(MockOptions.defaults("bedrock", MockMode.OK).withApi(MockApi.BEDROCK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: base, litellm_params: {model: openai/base, api_base: "http://127.0.0.1:9/v1", api_key: k}}
                        general_settings:
                          master_key: %s
                          %s
                        """.formatted(MASTER, store.generalSetting()))) {
            HttpResponse<String> added = admin(gateway, "/model/new", """
                    {"model_name": "claude", "litellm_params": {"model": "anthropic/claude-sonnet-4-5", "api_base": "%s",
                     "api_key": "mock-key"}}""".formatted(claude.baseUrl()));
            assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
            String root = bedrock.baseUrl().substring(0, bedrock.baseUrl().length() - "/v1".length());
            HttpResponse<String> addedBedrock = admin(gateway, "/model/new", """
                    {"model_name": "nova", "litellm_params": {"model": "bedrock/amazon.nova-pro-v1:0",
                     "aws_bedrock_runtime_endpoint": "%s", "aws_region_name": "us-east-1",
                     "aws_access_key_id": "mock-key", "aws_secret_access_key": "s3cr3t-access-key"}}""".formatted(root));
            assertThat(addedBedrock.statusCode()).as(addedBedrock.body()).isEqualTo(200);
            assertThat(addedBedrock.body()).doesNotContain("s3cr3t-access-key");

            HttpResponse<String> viaClaude = gateway.post("/v1/chat/completions", Chat.body("claude", "hi"), "Authorization",
                    "Bearer " + MASTER);
            assertThat(viaClaude.statusCode()).as(viaClaude.body()).isEqualTo(200);
            assertThat(viaClaude.body()).contains("[claude]", "chat.completion");
            HttpResponse<String> viaBedrock = gateway.post("/v1/chat/completions", Chat.body("nova", "hi"), "Authorization",
                    "Bearer " + MASTER);
            assertThat(viaBedrock.statusCode()).as(viaBedrock.body()).isEqualTo(200);
            assertThat(viaBedrock.body()).contains("[bedrock]", "chat.completion");

            HttpResponse<String> metadata = admin(gateway, "/model/new", """
                    {"model_name": "imds", "litellm_params": {"model": "bedrock/amazon.nova-pro-v1:0",
                     "aws_bedrock_runtime_endpoint": "http://169.254.169.254", "aws_region_name": "us-east-1",
                     "aws_access_key_id": "mock-key", "aws_secret_access_key": "s3cr3t-access-key"}}""");
            assertThat(metadata.statusCode()).as(metadata.body()).isEqualTo(400);
            assertThat(error(metadata).path("param").asText()).isEqualTo("litellm_params.aws_bedrock_runtime_endpoint");
            assertThat(error(metadata).path("code").asText()).isEqualTo("api_base_not_allowed");

            HttpResponse<String> unserved = admin(gateway, "/model/new", """
                    {"model_name": "sm", "litellm_params": {"model": "sagemaker/endpoint"}}""");
            assertThat(unserved.statusCode()).as(unserved.body()).isEqualTo(400);
            assertThat(error(unserved).path("message").asText()).contains("sagemaker/endpoint", "a provider Sluice supports");
        }
    }
}
