package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.boot.GatewayOptions;
import dev.sluice.boot.GatewayServer;
import dev.sluice.config.ConfigLoader;
import dev.sluice.http.Hops;
import dev.sluice.testing.Chat;
import dev.sluice.testing.Ports;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.vendors.Providers;
import dev.sluice.wire.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A deployment whose {@code api_base} leads back to the gateway itself: the call it sends
 * carries the gateway's hop mark, so the gateway refuses it at once with 508 Loop Detected,
 * instead of calling itself until something gives out.
 */
class LoopDetectionTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Test
    void aDeploymentThatCallsTheGatewayItselfIsRefusedOnItsFirstHop() throws Exception {
        int port = Ports.free();
        RecordingEvents events = new RecordingEvents();
        var config = ConfigLoader.parse("""
                model_list:
                  - {model_name: loop, litellm_params: {model: openai/itself, api_base: "http://127.0.0.1:%d/v1", api_key: sk-x}}
                router_settings: {num_retries: 0}
                """.formatted(port), Map.of(), Providers.knownPrefixes());
        try (GatewayServer gateway = GatewayServer.start(GatewayOptions.of(config, "127.0.0.1", port, Map.of())
                .withEventLoops(2).withEvents(events))) {
            HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                            + "/v1/chat/completions")).timeout(Duration.ofSeconds(20))
                    .POST(HttpRequest.BodyPublishers.ofString(Chat.body("loop", "hi"))).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(508);
            JsonNode error = Json.parse(answer.body().getBytes()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("loop_detected");
            assertThat(error.path("message").asText()).contains("already passed through this gateway");
            assertThat(events.brief().stream().filter(line -> line.startsWith("attempt ")).count())
                    .as("one attempt, whose call came back and was refused: %s", events.brief()).isEqualTo(1);
        }
    }

    @Test
    void aCallMarkedByTooManyGatewaysIsRefusedAndOneMarkedByOthersIsServed() throws Exception {
        int port = Ports.free();
        var config = ConfigLoader.parse("""
                model_list:
                  - {model_name: g, litellm_params: {model: openai/m, api_base: "http://127.0.0.1:%d/v1", api_key: sk-x}}
                router_settings: {num_retries: 0}
                """.formatted(Ports.refusing()), Map.of(), Providers.knownPrefixes());
        try (GatewayServer gateway = GatewayServer.start(GatewayOptions.of(config, "127.0.0.1", port, Map.of()).withEventLoops(1))) {
            String tooMany = String.join(",", java.util.Collections.nCopies(Hops.MAX, "another-gateway"));
            HttpResponse<String> refused = post(port, tooMany);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(508);
            assertThat(refused.body()).contains("at most " + Hops.MAX);

            HttpResponse<String> passed = post(port, "one-gateway,another-gateway");
            assertThat(passed.statusCode()).as("not a loop: it goes on to the (refusing) deployment").isEqualTo(502);
        }
    }

    private static HttpResponse<String> post(int port, String hops) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20)).header(Hops.HEADER, hops)
                .POST(HttpRequest.BodyPublishers.ofString(Chat.body("g", "hi"))).build(), HttpResponse.BodyHandlers.ofString());
    }
}
