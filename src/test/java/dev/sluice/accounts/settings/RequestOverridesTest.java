package dev.sluice.accounts.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A request's router_settings_override is read by the same rules as a team's router_settings. */
class RequestOverridesTest {
    private static final String CONFIG = """
            model_list:
              - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1}, model_info: {id: shared-1}}
              - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 0}, model_info: {id: reserved-1}}
            """;

    private static HttpResponse<String> call(TestGateway gateway, String override) {
        return gateway.post("/v1/chat/completions", """
                {"model":"g","router_settings_override":%s,"messages":[{"role":"user","content":"hi"}]}""".formatted(override));
    }

    private static JsonNode error(HttpResponse<String> response) throws IOException {
        return Json.parse(response.body().getBytes()).path("error");
    }

    @Test
    void aWrongDeploymentWeightIsRefusedNamingTheField() throws IOException {
        try (MockUpstream shared = MockUpstream.start(MockOptions.defaults("shared", MockMode.OK));
                MockUpstream reserved = MockUpstream.start(MockOptions.defaults("reserved", MockMode.OK));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(shared.baseUrl(), reserved.baseUrl()))) {
            HttpResponse<String> negative = call(gateway, "{\"deployment_weights\": {\"reserved-1\": -1}}");
            assertThat(negative.statusCode()).isEqualTo(400);
            assertThat(error(negative).path("param").asText()).isEqualTo("router_settings_override.deployment_weights.reserved-1");
            assertThat(error(negative).path("message").asText())
                    .isEqualTo("Invalid 'router_settings_override.deployment_weights.reserved-1': -1 (expected: >= 0).");

            HttpResponse<String> text = call(gateway, "{\"deployment_weights\": {\"reserved-1\": \"1\"}}");
            assertThat(text.statusCode()).isEqualTo(400);
            assertThat(error(text).path("param").asText()).isEqualTo("router_settings_override.deployment_weights.reserved-1");

            HttpResponse<String> notAMap = call(gateway, "{\"deployment_weights\": [1]}");
            assertThat(notAMap.statusCode()).isEqualTo(400);
            assertThat(error(notAMap).path("param").asText()).isEqualTo("router_settings_override.deployment_weights");
            assertThat(shared.requests() + reserved.requests()).isZero();
        }
    }

    @Test
    void rightDeploymentWeightsSendTheRequestToTheirDeployment() throws IOException {
        try (MockUpstream shared = MockUpstream.start(MockOptions.defaults("shared", MockMode.OK));
                MockUpstream reserved = MockUpstream.start(MockOptions.defaults("reserved", MockMode.OK));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(shared.baseUrl(), reserved.baseUrl()))) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> weighted = call(gateway, "{\"deployment_weights\": {\"reserved-1\": 1}}");
                assertThat(weighted.statusCode()).isEqualTo(200);
                assertThat(weighted.headers().firstValue("x-litellm-model-id")).hasValue("reserved-1");
                assertThat(call(gateway, "{}").headers().firstValue("x-litellm-model-id")).hasValue("shared-1");
            }
        }
    }
}
