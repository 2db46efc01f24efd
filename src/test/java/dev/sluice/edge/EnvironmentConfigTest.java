package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Values written {@code os.environ/NAME} reach the upstream call, end to end. */
class EnvironmentConfigTest {

    @Test
    void apiKeyAndBaseFromTheEnvironmentReachTheUpstream() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("guarded", MockMode.AUTH).withApiKey("sk-from-env"))) {
            String yaml = """
                    model_list:
                      - model_name: chat
                        litellm_params: {model: openai/m, api_base: os.environ/UP_BASE, api_key: os.environ/UP_KEY}
                    """;
            Map<String, String> env = Map.of("UP_BASE", upstream.baseUrl(), "UP_KEY", "sk-from-env");
            try (TestGateway gateway = TestGateway.start(yaml, env)) {
                assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "hi")).statusCode()).isEqualTo(200);
            }
            try (TestGateway gateway = TestGateway.start(yaml, Map.of("UP_BASE", upstream.baseUrl(), "UP_KEY", "sk-rotated-wrong"))) {
                assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "hi")).statusCode()).isEqualTo(401);
            }
        }
    }

    @Test
    void azureDeploymentIsCalledAtItsDeploymentUrlWithApiKeyHeader() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("azure", MockMode.AUTH).withApiKey("az-key"))) {
            String base = upstream.baseUrl().replace("/v1", "");
            try (TestGateway gateway = TestGateway.start("""
                    model_list:
                      - model_name: chat
                        litellm_params: {model: azure/gpt4o-eu, api_base: %s, api_key: os.environ/AZ_KEY, api_version: "2024-10-21"}
                    """.formatted(base), Map.of("AZ_KEY", "az-key"))) {
                var response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).contains("\"model\":\"gpt4o-eu\"");
                assertThat(upstream.receivedHeaders().get(0)).containsEntry("api-key", "az-key").doesNotContainKey("authorization");
            }
        }
    }
}
