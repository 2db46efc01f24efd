package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.LoopbackClients;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar, under its launcher's default heap, opened more streams at once than that
 * heap holds: it turns the excess away with 503 and Retry-After, carries every stream it
 * admitted to [DONE], and serves ordinary calls again as soon as the load has gone.
 */
class StreamsShedIT {
    @TempDir
    Path folder;

    @Test
    void streamsPastWhatTheHeapHoldsAreShedAndEveryAdmittedOneFinishes() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofSeconds(4)));
                GatewayProcess gateway = GatewayProcess.start("streams", """
                        model_list:
                          - {model_name: chat, litellm_params: {model: openai/m, api_base: %s}}
                        """.formatted(upstream.baseUrl()), folder)) {
            int bound = (int) gateway.metric("sluice_calls_in_flight_max");
            assertThat(bound).as("sized to the default heap").isBetween(500, 5000);
            int excess = 150;
            List<HttpClient> clients = new ArrayList<>();
            for (int i = 0; i < (bound + excess) / 200 + 1; i++) {
                clients.add(LoopbackClients.http(i)); // 200 a client address, under max_connections_per_ip
            }
            HttpRequest stream = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions")).timeout(Duration.ofSeconds(120))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Chat.stream("chat", "one two three four five"))).build();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < bound + excess; i++) {
                answers.add(clients.get(i / 200).sendAsync(stream, HttpResponse.BodyHandlers.ofString()));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(180, TimeUnit.SECONDS);

            Map<String, Long> outcomes = answers.stream().map(CompletableFuture::join).map(StreamsShedIT::outcome)
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertThat(outcomes.keySet()).as(outcomes.toString()).containsOnly("200 [DONE]", "503 Retry-After");
            assertThat(outcomes.get("503 Retry-After")).as(outcomes.toString()).isGreaterThanOrEqualTo(excess);
            assertThat(outcomes.get("200 [DONE]")).as(outcomes.toString()).isGreaterThan(bound / 2);

            long started = System.nanoTime();
            assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "hi")).statusCode()).isEqualTo(200);
            assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertThat(gateway.output()).doesNotContain("OutOfMemoryError");
        }
    }

    private static String outcome(HttpResponse<String> answer) {
        return switch (answer.statusCode()) {
            case 200 -> answer.body().contains("data: [DONE]") && !answer.body().contains("stream_interrupted")
                    ? "200 [DONE]" : "200 cut";
            case 503 -> answer.headers().firstValue("Retry-After").isPresent() ? "503 Retry-After" : "503 without Retry-After";
            default -> answer.statusCode() + " " + answer.body();
        };
    }
}
