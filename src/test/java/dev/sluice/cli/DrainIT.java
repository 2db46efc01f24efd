package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar told to stop by {@code SIGTERM} lets a slow stream in flight finish before it exits. */
class DrainIT {

    @Test
    void aSlowStreamInFlightEndsWithDoneAfterSigterm(@TempDir Path dir) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.heldStream("up", Duration.ofSeconds(3)));
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

            HttpResponse<String> answer = stream.get(30, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("[up] first").contains(" last").contains("data: [DONE]")
                    .doesNotContain("stream_interrupted");
            assertThat(gateway.awaitExit(Duration.ofSeconds(20))).as("the gateway exits once the stream is over").isTrue();
        }
    }
}
