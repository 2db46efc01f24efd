package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar under a small heap ({@code -Xmx288m}) taking four 31 MB bodies at once: each is
 * served or refused with 503 and {@code Retry-After} by the buffered-body budget, none meets an
 * {@code OutOfMemoryError} or a 500, and the gateway serves on afterwards.
 */
class BufferedBodiesIT {
    @TempDir
    Path folder;

    @Test
    void fourLargeBodiesAtOnceUnderASmallHeapAreServedOrShedNeverA500() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW)
                        .withDelay(Duration.ofMillis(500)).withMaxChars(64 * 1024 * 1024));
                GatewayProcess gateway = GatewayProcess.start("small-heap", """
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}}
                        general_settings:
                          max_request_size_mb: 64
                        """.formatted(upstream.baseUrl()), folder, Map.of("JAVA_TOOL_OPTIONS", "-Xmx288m"))) {
            // The budget is an eighth of the heap the JVM reports, which under the gateway's
            // serial collector leaves out one survivor space: 288 MB takes one 31 MB body, not two.
            // 31 MB in four messages: the mock's JSON reader takes no single string over 20 MB.
            String part = "{\"role\":\"user\",\"content\":\"" + "x".repeat(31 * 1024 * 1024 / 4) + "\"}";
            String big = "{\"model\":\"g\",\"messages\":[" + String.join(",", part, part, part, part) + "]}";
            ConcurrentLinkedQueue<String> outcomes = new ConcurrentLinkedQueue<>();
            Concurrently.run(4, Duration.ofSeconds(120), i -> {
                HttpResponse<String> answer = gateway.post("/v1/chat/completions", big);
                outcomes.add(answer.statusCode() + (answer.statusCode() == 503
                        ? " " + answer.headers().firstValue("Retry-After").orElse("no Retry-After") : ""));
                if (answer.statusCode() != 200) {
                    assertThat(Json.parse(answer.body().getBytes(StandardCharsets.UTF_8)).path("error").path("message").isTextual())
                            .as(answer.body()).isTrue();
                }
            });
            assertThat(outcomes).as("each served, or shed with Retry-After").allMatch(o -> o.equals("200") || o.equals("503 1"));
            assertThat(outcomes).contains("200");
            assertThat(gateway.output()).doesNotContain("OutOfMemoryError");
            assertThat(gateway.post("/v1/chat/completions", Chat.body("g", "hi")).statusCode()).isEqualTo(200);
        }
    }
}
