package dev.sluice.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockApi;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /health} probes deployments of every vendor through their own adapters: a
 * healthy Gemini and Bedrock deployment is called in its vendor's format and found healthy, and
 * one failing the vendor's way is listed with the vendor's words and its failure class.
 */
class VendorHealthProbesTest {
    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : started.reversed()) {
            c.close();
        }
    }

    private String root(MockApi api, String name, MockMode mode) {
        MockUpstream mock = MockUpstream.start(MockOptions.defaults(name, mode).withApi(api));
        started.add(mock);
        return mock.baseUrl().substring(0, mock.baseUrl().length() - "/v1".length());
    }

    @Test
    void everyVendorIsProbedInItsOwnFormat() throws Exception {
        String gemini = root(MockApi.GEMINI, "gemini-ok", MockMode.OK);
        String geminiBusy = root(MockApi.GEMINI, "gemini-busy", MockMode.RATELIMIT);
        String bedrock = root(MockApi.BEDROCK, "bedrock-ok", MockMode.OK);
        String bedrockDown = root(MockApi.BEDROCK, "bedrock-down", MockMode.FAIL);
        String aws = "aws_access_key_id: mock-key, aws_secret_access_key: s3cret-key-value, aws_region_name: us-east-1";
        TestGateway gateway = TestGateway.start("""
                model_list:
                  - {model_name: g, litellm_params: {model: gemini/gemini-2.5-flash, api_base: "%s", api_key: mock-key}, model_info: {id: gemini-ok}}
                  - {model_name: g, litellm_params: {model: gemini/gemini-2.5-flash, api_base: "%s", api_key: mock-key}, model_info: {id: gemini-busy}}
                  - {model_name: b, litellm_params: {model: bedrock/amazon.nova-pro-v1:0, aws_bedrock_runtime_endpoint: "%s", %s}, model_info: {id: bedrock-ok}}
                  - {model_name: b, litellm_params: {model: bedrock/amazon.nova-pro-v1:0, aws_bedrock_runtime_endpoint: "%s", %s}, model_info: {id: bedrock-down}}
                """.formatted(gemini, geminiBusy, bedrock, aws, bedrockDown, aws));
        started.add(gateway);

        HttpResponse<String> response = gateway.get("/health");

        JsonNode body = Json.parse(response.body().getBytes());
        assertThat(body.path("healthy_endpoints").findValuesAsText("model_id")).containsExactlyInAnyOrder("gemini-ok", "bedrock-ok");
        assertThat(body.path("unhealthy_endpoints").findValuesAsText("model_id")).containsExactlyInAnyOrder("gemini-busy", "bedrock-down");
        for (JsonNode unhealthy : body.path("unhealthy_endpoints")) {
            String expectedClass = unhealthy.path("model_id").asText().equals("gemini-busy") ? "rate_limited" : "server";
            assertThat(unhealthy.path("failure_class").asText()).as(unhealthy.toString()).isEqualTo(expectedClass);
            assertThat(unhealthy.path("error").asText()).startsWith("HTTP ");
        }
        assertThat(response.body()).doesNotContain("s3cret-key-value");
    }
}
