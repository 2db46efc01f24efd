package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.wire.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar told to stop by {@code SIGTERM}, as an orchestrator stops a replica: it keeps
 * listening while it drains, so probes see the stop (readiness 503, liveliness 200, a new call
 * 503 {@code shutting_down}) instead of a refused connection; a stream in flight finishes; the
 * process logs what it finished and exits 0, with no stack trace.
 */
class DrainIT {

    @Test
    void probesSeeTheDrainAStreamInFlightFinishesAndTheProcessExitsZero(@TempDir Path dir) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.heldStream("up", Duration.ofSeconds(6)));
                GatewayProcess gateway = GatewayProcess.start("draining", Configs.singleDeployment(upstream.baseUrl(), "")
                        + "general_settings: {drain_timeout_seconds: 20}\n", dir)) {
            HttpRequest request = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Chat.stream("chat", "hi")))
                    .build();
            CompletableFuture<HttpResponse<String>> stream = gateway.client().sendAsync(request, HttpResponse.BodyHandlers.ofString());
            Eventually.until("the stream is under way", Duration.ofSeconds(10), () -> upstream.open() == 1);

            gateway.terminate();

            // Each probe below is a new request, on a kept-alive connection or a new one: none may be refused.
            HttpResponse<String> ready = Eventually.value("readiness answers 503", Duration.ofSeconds(5), () -> {
                HttpResponse<String> answer = gateway.get("/health/readiness");
                return answer.statusCode() == 503 ? java.util.Optional.of(answer) : java.util.Optional.empty();
            });
            assertThat(Json.parse(ready.body().getBytes()).at("/error/code").asText()).isEqualTo("shutting_down");
            assertThat(ready.headers().firstValue("retry-after")).isPresent();
            assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
            assertThat(gateway.get("/metrics").statusCode()).isEqualTo(200);
            HttpResponse<String> refused = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(Json.parse(refused.body().getBytes()).at("/error/code").asText()).isEqualTo("shutting_down");
            assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
            assertThat(refused.headers().firstValue("connection")).hasValue("close");
            assertThat(stream).as("the stream was still in flight while the probes were answered").isNotDone();

            HttpResponse<String> answer = stream.get(30, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("[up] first").contains(" last").contains("data: [DONE]")
                    .doesNotContain("stream_interrupted");
            assertThat(gateway.awaitExit(Duration.ofSeconds(20))).as("the gateway exits once the stream is over").isTrue();
            assertThat(gateway.exitCode()).as(gateway.output()).isZero();
            assertThat(gateway.output()).contains("shutdown.drained calls_in_flight=1 calls_finished=1 calls_cut=0")
                    .doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(upstream.calls()).as("the call refused during the drain never went upstream").isEqualTo(1);
        }
    }

    @Test
    void aDrainWithNothingInFlightLogsItAndExitsZero(@TempDir Path dir) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.start("up");
                GatewayProcess gateway = GatewayProcess.start("idle", Configs.singleDeployment(upstream.baseUrl(), ""), dir)) {
            assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200); // leaves a kept-alive connection

            gateway.terminate();

            assertThat(gateway.awaitExit(Duration.ofSeconds(20))).isTrue();
            assertThat(gateway.exitCode()).as(gateway.output()).isZero();
            assertThat(gateway.output()).contains("shutdown.drained calls_in_flight=0 calls_finished=0 calls_cut=0")
                    .doesNotContain("Exception").doesNotContain("\tat ");
        }
    }
}
