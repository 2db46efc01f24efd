package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.store.ModelRepository;
import dev.sluice.store.StoredModel;
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
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gateway's own credentials stay with the operator's deployments: one given through the
 * model API, pointed at an upstream on loopback that records the headers it gets, receives no
 * provider variable, no AWS default chain and no stored key it was moved away from, unless
 * {@code general_settings} lends it.
 */
class ModelApiCredentialsTest {
    private static final String MASTER = "sk-admin";
    private static final String OPENAI_ENV_KEY = "sk-openai-from-the-gateway-env";
    private static final String ANTHROPIC_ENV_KEY = "sk-ant-from-the-gateway-env";
    private static final Map<String, String> ENV = Map.of("OPENAI_API_KEY", OPENAI_ENV_KEY, "ANTHROPIC_API_KEY", ANTHROPIC_ENV_KEY);

    private static final String CLAUDE = """
            {"model_name": "api-claude", "litellm_params": {"model": "anthropic/claude-sonnet-4-5", "api_base": "%s"}}""";

    private static String config(TestDatabase store, String apiBase, String extraGeneral) {
        return """
                model_list:
                  - {model_name: operator, litellm_params: {model: openai/m, api_base: "%s"}}
                general_settings:
                  master_key: %s
                  %s
                  %s
                """.formatted(apiBase, MASTER, store.generalSetting(), extraGeneral);
    }

    private static HttpResponse<String> admin(TestGateway gateway, String path, String body) {
        return gateway.post(path, body, "Authorization", "Bearer " + MASTER);
    }

    private static HttpResponse<String> chat(TestGateway gateway, String group) {
        return gateway.post("/v1/chat/completions", Chat.body(group, "hi"), "Authorization", "Bearer " + MASTER);
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes()).path("error");
    }

    private static void assertRefused(HttpResponse<String> response, String param, String code) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(error(response).path("param").asText()).as(response.body()).isEqualTo(param);
        assertThat(error(response).path("code").asText()).as(response.body()).isEqualTo(code);
        assertThat(error(response).path("message").asText()).contains(param);
    }

    private static void assertAdded(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void aDeploymentOfTheModelApiWithoutAKeyGetsNoProviderVariableUnlessListed() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream openai = MockUpstream.start(MockOptions.defaults("openai", MockMode.OK));
                MockUpstream claude = MockUpstream.start(MockOptions.defaults("claude", MockMode.OK).withApi(MockApi.ANTHROPIC))) {
            try (TestGateway gateway = TestGateway.start(config(store, openai.baseUrl(), ""), ENV)) {
                assertAdded(admin(gateway, "/model/new", """
                        {"model_name": "api-openai", "litellm_params": {"model": "openai/m", "api_base": "%s"}}"""
                        .formatted(openai.baseUrl())));
                HttpResponse<String> claudeKeyless = admin(gateway, "/model/new", CLAUDE.formatted(claude.baseUrl()));
                assertThat(claudeKeyless.statusCode()).as("Anthropic needs a key, and the variable is not lent: " + claudeKeyless.body())
                        .isEqualTo(400);
                assertThat(claudeKeyless.body()).contains("litellm_params.api_key: missing").doesNotContain(ANTHROPIC_ENV_KEY);

                assertThat(chat(gateway, "api-openai").statusCode()).isEqualTo(200);
                assertThat(openai.receivedHeaders().getLast()).doesNotContainKey("authorization");
                assertThat(openai.receivedHeaders().getLast().toString()).doesNotContain(OPENAI_ENV_KEY);
                assertThat(chat(gateway, "operator").statusCode()).isEqualTo(200);
                assertThat(openai.receivedHeaders().getLast().get("authorization")).as("the config file's deployment is the operator's")
                        .isEqualTo("Bearer " + OPENAI_ENV_KEY);
            }
            String lendBoth = "admin_allowed_env_vars: [OPENAI_API_KEY, ANTHROPIC_API_KEY]";
            try (TestGateway lending = TestGateway.start(config(store, openai.baseUrl(), lendBoth), ENV)) {
                assertThat(chat(lending, "api-openai").statusCode()).isEqualTo(200);
                assertThat(openai.receivedHeaders().getLast().get("authorization")).as("a listed variable is lent")
                        .isEqualTo("Bearer " + OPENAI_ENV_KEY);
                assertAdded(admin(lending, "/model/new", CLAUDE.formatted(claude.baseUrl())));
                assertThat(chat(lending, "api-claude").statusCode()).isEqualTo(200);
                assertThat(claude.receivedHeaders().getLast().get("x-api-key")).isEqualTo(ANTHROPIC_ENV_KEY);
            }
        }
    }

    @Test
    void aBedrockDeploymentOfTheModelApiIsNeverSignedByTheDefaultChainUnlessLent() throws Exception {
        System.setProperty("aws.accessKeyId", "AKIDGATEWAYCHAIN");
        System.setProperty("aws.secretAccessKey", "gateway-chain-secret");
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream bedrock = MockUpstream.start(MockOptions.defaults("bedrock", MockMode.OK).withApi(MockApi.BEDROCK))) {
            String root = bedrock.baseUrl().substring(0, bedrock.baseUrl().length() - "/v1".length());
            String keyless = """
                    {"model_name": "nova", "litellm_params": {"model": "bedrock/amazon.nova-pro-v1:0",
                     "aws_bedrock_runtime_endpoint": "%s", "aws_region_name": "us-east-1"}, "model_info": {"id": "nova-1"}}"""
                    .formatted(root);
            try (TestGateway gateway = TestGateway.start(config(store, bedrock.baseUrl(), ""), Map.of())) {
                assertRefused(admin(gateway, "/model/new", keyless), "litellm_params.aws_access_key_id", "credential_not_allowed");
                assertRefused(admin(gateway, "/model/new", keyless.replace("\"aws_region_name\"",
                        "\"aws_access_key_id\": \"AKIDCALLER\", \"aws_region_name\"")), "litellm_params.aws_secret_access_key",
                        "credential_not_allowed");
            }
            // As written before this rule: not served, and the chain is never asked.
            Instant then = Instant.parse("2026-01-01T00:00:00Z");
            new ModelRepository(store.database()).insert(new StoredModel("nova-1", "nova", keyless, then, then));
            try (TestGateway gateway = TestGateway.start(config(store, bedrock.baseUrl(), ""), Map.of())) {
                HttpResponse<String> notServed = chat(gateway, "nova");
                assertThat(notServed.statusCode()).as(notServed.body()).isEqualTo(400);
                assertThat(bedrock.requests()).isZero();
            }
            String lendChain = "admin_allowed_credentials: [aws_default_chain]";
            try (TestGateway lending = TestGateway.start(config(store, bedrock.baseUrl(), lendChain), Map.of())) {
                assertThat(chat(lending, "nova").statusCode()).isEqualTo(200);
                assertThat(bedrock.receivedHeaders().getLast().get("authorization")).as("lent, it signs")
                        .startsWith("AWS4-HMAC-SHA256 Credential=AKIDGATEWAYCHAIN/");
            }
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }

    @Test
    void movingAStoredDeploymentElsewhereNeedsItsKeyAgain() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                MockUpstream first = MockUpstream.start(MockOptions.defaults("first", MockMode.OK));
                MockUpstream second = MockUpstream.start(MockOptions.defaults("second", MockMode.OK));
                TestGateway gateway = TestGateway.start(config(store, first.baseUrl(), ""), Map.of())) {
            assertAdded(admin(gateway, "/model/new", """
                    {"model_name": "moved", "litellm_params": {"model": "openai/m", "api_base": "%s", "api_key": "sk-stored-upstream-key"},
                     "model_info": {"id": "moved-1"}}""".formatted(first.baseUrl())));

            assertRefused(admin(gateway, "/model/update", """
                    {"model_info": {"id": "moved-1"}, "litellm_params": {"api_base": "%s"}}""".formatted(second.baseUrl())),
                    "litellm_params.api_key", "credential_required");
            assertRefused(admin(gateway, "/model/update", """
                    {"model_info": {"id": "moved-1"}, "litellm_params": {"model": "hosted_vllm/m"}}"""),
                    "litellm_params.api_key", "credential_required");
            assertThat(chat(gateway, "moved").statusCode()).as("served as it was").isEqualTo(200);
            assertThat(second.requests()).isZero();

            assertAdded(admin(gateway, "/model/update", """
                    {"model_info": {"id": "moved-1"}, "litellm_params": {"rpm": 100, "api_base": "%s"}}""".formatted(first.baseUrl())));
            assertAdded(admin(gateway, "/model/update", """
                    {"model_info": {"id": "moved-1"}, "litellm_params": {"api_base": "%s", "api_key": "sk-given-again"}}"""
                    .formatted(second.baseUrl())));
            assertThat(chat(gateway, "moved").statusCode()).isEqualTo(200);
            assertThat(second.receivedHeaders().getLast().get("authorization")).isEqualTo("Bearer sk-given-again");
            assertThat(first.receivedHeaders().toString()).doesNotContain("sk-given-again");
        }
    }

    @Test
    void aRegionThatIsNotARegionNameIsRefused() throws Exception {
        try (TestDatabase store = TestDatabases.postgres();
                TestGateway gateway = TestGateway.start(config(store, "http://127.0.0.1:9/v1", ""), Map.of())) {
            HttpResponse<String> vertex = admin(gateway, "/model/new", """
                    {"model_name": "v", "litellm_params": {"model": "vertex_ai/gemini-2.0-flash", "vertex_project": "p",
                     "vertex_location": "evil.example/x?", "vertex_credentials": "{\\"type\\": \\"service_account\\"}"}}""");
            assertThat(vertex.statusCode()).as(vertex.body()).isEqualTo(400);
            assertThat(error(vertex).path("message").asText()).contains("litellm_params.vertex_location", "a region name");
            HttpResponse<String> bedrock = admin(gateway, "/model/new", """
                    {"model_name": "b", "litellm_params": {"model": "bedrock/amazon.nova-pro-v1:0", "aws_region_name": "evil.example/x?",
                     "aws_access_key_id": "AKID", "aws_secret_access_key": "secret"}}""");
            assertThat(bedrock.statusCode()).as(bedrock.body()).isEqualTo(400);
            assertThat(error(bedrock).path("message").asText()).contains("litellm_params.aws_region_name", "a region name");
        }
    }
}
