package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Past global_max_parallel_requests a call is turned away with a 503 it may retry, and served once one ends. */
class CallsInFlightTest {
    @Test
    void aCallPastTheBoundIsA503WithRetryAfterAndTheBoundFreesAsCallsEnd() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofSeconds(3)));
                TestGateway gateway = TestGateway.chat(upstream.baseUrl(), "global_max_parallel_requests: 2")) {
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
                    () -> gateway.post("/v1/chat/completions", Chat.body("chat", "one")));
            CompletableFuture<HttpResponse<String>> second = CompletableFuture.supplyAsync(
                    () -> gateway.post("/v1/chat/completions", Chat.body("chat", "two")));
            gateway.awaitMetric("both calls are in flight", "sluice_calls_in_flight", 2);

            HttpResponse<String> third = gateway.post("/v1/chat/completions", Chat.body("chat", "three"));

            assertThat(third.statusCode()).isEqualTo(503);
            assertThat(third.headers().firstValue("Retry-After")).isPresent();
            JsonNode error = Json.parse(third.body().getBytes(StandardCharsets.UTF_8)).path("error");
            assertThat(error.path("code").asText()).isEqualTo("server_overloaded");
            assertThat(error.path("message").asText()).contains("global_max_parallel_requests");
            assertThat(first.get().statusCode()).isEqualTo(200);
            assertThat(second.get().statusCode()).isEqualTo(200);
            Eventually.until("the slots are given back", Duration.ofSeconds(10),
                    () -> gateway.metric("sluice_calls_in_flight") == 0);
            assertThat(upstream.requests()).isEqualTo(2);
        }
    }
}
