package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.TestRedis;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two gateways sharing the local Redis, as two replicas behind one load balancer would:
 * {@code least-busy} on one counts the streams open through the other. Each test uses a
 * {@code redis_key_prefix} of its own.
 */
class SharedInFlightCountsTest {
    private final String prefix = TestRedis.newPrefix();

    @AfterEach
    void cleanUp() {
        TestRedis.deleteKeys(prefix);
    }

    @Test
    void aStreamHeldOpenThroughOneReplicaSteersLeastBusyOnTheOtherAndStillEndsWithDone() throws Exception {
        try (ScriptedUpstream holding = ScriptedUpstream.always("holding", ScriptedUpstream.Reply.heldStream("holding", Duration.ofMillis(2500)));
                MockUpstream free = MockUpstream.start(MockOptions.defaults("free", MockMode.OK))) {
            String settings = """
                    router_settings:
                      redis_host: %s
                      redis_port: %d
                      redis_key_prefix: "%s"
                    """.formatted(TestRedis.HOST, TestRedis.PORT, prefix);
            // Through a the stream can only go to 'holding'; b has both and picks by least-busy.
            String onlyHolding = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: holding}}
                    """.formatted(holding.baseUrl()) + settings;
            String both = """
                    model_list:
                      - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: holding}}
                      - {model_name: g, litellm_params: {model: openai/b, api_base: %s}, model_info: {id: free}}
                    """.formatted(holding.baseUrl(), free.baseUrl()) + settings;
            try (TestGateway a = TestGateway.start(onlyHolding);
                    TestGateway b = TestGateway.start(both)) {
                CompletableFuture<HttpResponse<String>> stream = HttpClient.newHttpClient().sendAsync(
                        HttpRequest.newBuilder(a.uri("/v1/chat/completions"))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("""
                                        {"model":"g","stream":true,"router_settings_override":{"routing_strategy":"least-busy"},
                                         "messages":[{"role":"user","content":"tell me a long story"}]}"""))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                Eventually.until("a stream is held open through a", Duration.ofSeconds(10), () -> holding.open() == 1);
                // In-flight counts go out a few milliseconds after they change: wait until b counts the stream.
                b.awaitMetric("b counts the stream open through a",
                        "sluice_deployment_in_flight{deployment=\"holding\",model_group=\"g\"}", 1.0);

                for (int i = 0; i < 8; i++) {
                    HttpResponse<String> answer = b.post("/v1/chat/completions", """
                            {"model":"g","router_settings_override":{"routing_strategy":"least-busy"},
                             "messages":[{"role":"user","content":"hi"}]}""");
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                    assertThat(answer.headers().firstValue("x-litellm-model-id"))
                            .as("b counts the stream open through a").hasValue("free");
                }
                assertThat(holding.calls()).as("b sent nothing to the busy deployment").isEqualTo(1);

                HttpResponse<String> held = stream.get();
                assertThat(held.statusCode()).isEqualTo(200);
                assertThat(held.body()).contains("[holding] first").endsWith("data: [DONE]\n\n");
            }
        }
    }
}
