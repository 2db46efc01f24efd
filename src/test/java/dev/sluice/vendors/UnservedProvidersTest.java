package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A config with a deployment of a provider Sluice does not serve still starts: the rest is
 * served, and a call to a group that has nothing else is told which provider it would need.
 */
class UnservedProvidersTest {

    @Test
    void theRestIsServedAndAGroupOfOnlyUnservedDeploymentsIsA400NamingTheProvider() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: served, litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: sk-x}}
                          - {model_name: mixed, litellm_params: {model: sagemaker/endpoint-a}}
                          - {model_name: mixed, litellm_params: {model: openai/gpt-4o, api_base: "%s", api_key: sk-x}}
                          - {model_name: elsewhere, litellm_params: {model: sagemaker/endpoint-b}}
                          - {model_name: elsewhere, litellm_params: {model: petals/model-c}}
                        """.formatted(upstream.baseUrl(), upstream.baseUrl()))) {
            assertThat(gateway.post("/v1/chat/completions", Chat.body("served", "hi")).statusCode()).isEqualTo(200);
            assertThat(gateway.post("/v1/chat/completions", Chat.body("mixed", "hi")).statusCode()).isEqualTo(200);

            HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("elsewhere", "hi"));

            assertThat(refused.statusCode()).isEqualTo(400);
            JsonNode error = Json.parse(refused.body().getBytes()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("provider_not_supported");
            assertThat(error.path("param").asText()).isEqualTo("model");
            assertThat(error.path("message").asText()).contains("model group 'elsewhere'", "'petals', 'sagemaker'",
                    "which Sluice does not serve");

            HttpResponse<String> unknown = gateway.post("/v1/chat/completions", Chat.body("never-configured", "hi"));
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(unknown.body()).contains("model_not_found").doesNotContain("provider_not_supported");
        }
    }
}
