package dev.sluice.routing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Every strategy chosen per request, over real sockets: the configured strategy is
 * simple-shuffle everywhere here, and each request names its own in
 * {@code router_settings_override.routing_strategy}.
 */
class StrategyRoutingTest {

    static String body(String group, String strategy, String content) {
        return """
                {"model":"%s","router_settings_override":{"routing_strategy":"%s"},"messages":[{"role":"user","content":"%s"}]}"""
                .formatted(group, strategy, content);
    }

    static String servedBy(HttpResponse<String> response) {
        return response.headers().firstValue("x-litellm-model-id").orElse("none");
    }

    @Test
    void simpleShuffleNeverPicksTheBackupFirst() throws IOException {
        try (MockUpstream weighted = MockUpstream.start(MockOptions.defaults("weighted", MockMode.OK));
                MockUpstream backup = MockUpstream.start(MockOptions.defaults("backup", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, weight: 1}, model_info: {id: weighted}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: backup}}
                        """.formatted(weighted.baseUrl(), backup.baseUrl()))) {
            for (int i = 0; i < 10; i++) {
                assertThat(servedBy(gateway.post("/v1/chat/completions", body("g", "simple-shuffle", "hi")))).isEqualTo("weighted");
            }
            assertThat(backup.requests()).isZero();
        }
    }

    @Test
    void costBasedPicksTheCheapestOfThree() throws IOException {
        try (MockUpstream dear = MockUpstream.start(MockOptions.defaults("dear", MockMode.OK));
                MockUpstream cheap = MockUpstream.start(MockOptions.defaults("cheap", MockMode.OK));
                MockUpstream middle = MockUpstream.start(MockOptions.defaults("middle", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, input_cost_per_token: 0.00001, output_cost_per_token: 0.00003}, model_info: {id: dear}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, input_cost_per_token: 0.0000001, output_cost_per_token: 0.0000004}, model_info: {id: cheap}}
                          - {model_name: g, litellm_params: {model: openai/c, api_base: %s, input_cost_per_token: 0.000001, output_cost_per_token: 0.000002}, model_info: {id: middle}}
                        """.formatted(dear.baseUrl(), cheap.baseUrl(), middle.baseUrl()))) {
            for (int i = 0; i < 5; i++) {
                assertThat(servedBy(gateway.post("/v1/chat/completions", body("g", "cost-based-routing", "hi")))).isEqualTo("cheap");
            }
        }
    }

    @Test
    void usageBasedPicksTheDeploymentWithTpmHeadroomAndSays429WhenNoneHasAny() throws IOException {
        try (MockUpstream small = MockUpstream.start(MockOptions.defaults("small", MockMode.OK));
                MockUpstream roomy = MockUpstream.start(MockOptions.defaults("roomy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s, tpm: 5}, model_info: {id: small}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, tpm: 100000}, model_info: {id: roomy}}
                          - {model_name: tiny, litellm_params: {model: openai/c, api_base: %s, tpm: 5}, model_info: {id: tiny-1}}
                        """.formatted(small.baseUrl(), roomy.baseUrl(), small.baseUrl()))) {
            String prompt = "a prompt of well over five tokens, so that it cannot fit in a budget of five";
            for (int i = 0; i < 5; i++) {
                assertThat(servedBy(gateway.post("/v1/chat/completions", body("g", "usage-based-routing-v2", prompt)))).isEqualTo("roomy");
            }
            assertThat(small.requests()).isZero();

            HttpResponse<String> full = gateway.post("/v1/chat/completions", body("tiny", "usage-based-routing", prompt));
            assertThat(full.statusCode()).isEqualTo(429);
            assertThat(full.headers().firstValue("retry-after")).isPresent();
            JsonNode error = Json.MAPPER.readTree(full.body()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("no_capacity");
            assertThat(error.path("message").asText()).contains("deployment 'tiny-1'", "tpm 5");
        }
    }

    @Test
    void latencyBasedRoutesAroundASlowDeployment() throws IOException {
        try (MockUpstream slow = MockUpstream.start(MockOptions.defaults("slow", MockMode.SLOW).withDelay(Duration.ofMillis(400)));
                MockUpstream fast = MockUpstream.start(MockOptions.defaults("fast", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: slow}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: fast}}
                        """.formatted(slow.baseUrl(), fast.baseUrl()))) {
            // Deployments without samples are tried first, so the first two calls explore both.
            gateway.post("/v1/chat/completions", body("g", "latency-based-routing", "hi"));
            gateway.post("/v1/chat/completions", body("g", "latency-based-routing", "hi"));
            assertThat(slow.requests()).isEqualTo(1);

            for (int i = 0; i < 6; i++) {
                assertThat(servedBy(gateway.post("/v1/chat/completions", body("g", "latency-based-routing", "hi")))).isEqualTo("fast");
            }
        }
    }

    @Test
    void leastBusyAvoidsTheDeploymentHoldingALongStreamWhichStillEndsWithDone() throws Exception {
        try (ScriptedUpstream holding = ScriptedUpstream.always("holding", ScriptedUpstream.Reply.heldStream("holding", Duration.ofMillis(2500)));
                MockUpstream free = MockUpstream.start(MockOptions.defaults("free", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: free}}
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: holding}}
                        """.formatted(free.baseUrl(), holding.baseUrl()))) {
            HttpClient client = HttpClient.newHttpClient();
            // Both are idle at first, so the first pick is the seeded random's: with the test seed it is 'holding'.
            CompletableFuture<HttpResponse<String>> stream = client.sendAsync(
                    HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("""
                                    {"model":"g","stream":true,"router_settings_override":{"routing_strategy":"least-busy"},
                                     "messages":[{"role":"user","content":"tell me a long story"}]}"""))
                            .build(), HttpResponse.BodyHandlers.ofString());
            Eventually.until("the stream is held open at 'holding'", Duration.ofSeconds(5), () -> holding.open() == 1);
            assertThat(free.requests()).as("the first pick went to 'holding'").isZero();

            for (int i = 0; i < 5; i++) {
                assertThat(servedBy(gateway.post("/v1/chat/completions", body("g", "least-busy", "hi")))).isEqualTo("free");
            }
            HttpResponse<String> held = stream.get();
            assertThat(held.statusCode()).isEqualTo(200);
            assertThat(held.body()).contains("[holding] first").endsWith("data: [DONE]\n\n");
        }
    }
}
