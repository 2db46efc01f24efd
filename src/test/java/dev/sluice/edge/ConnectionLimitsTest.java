package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RawAnswers;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A request head trickled in is cut after request_head_timeout_seconds; connections past max_open_connections are closed. */
class ConnectionLimitsTest {
    private static final String MODELS = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
    private static MockUpstream upstream;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
    }

    @AfterAll
    static void stop() {
        upstream.close();
    }

    private static TestGateway gateway(String general) {
        return TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                general_settings:
                  %s
                """.formatted(upstream.baseUrl(), general));
    }

    @Test
    void aTrickledHeadIsCutWith408WhileOtherConnectionsAreServed() throws Exception {
        try (TestGateway gateway = gateway("request_head_timeout_seconds: 1");
                Socket slow = new Socket("127.0.0.1", gateway.port())) {
            slow.setSoTimeout(15_000);
            OutputStream out = slow.getOutputStream();
            out.write("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            AtomicBoolean answered = new AtomicBoolean();
            Thread trickle = Thread.ofVirtual().start(() -> {
                try {
                    while (!answered.get()) {
                        out.write('a'); // each byte would reset an idle timeout
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    // the gateway closed the connection, or the test is over
                }
            });

            try (Socket other = new Socket("127.0.0.1", gateway.port())) {
                other.setSoTimeout(10_000);
                other.getOutputStream().write(MODELS.getBytes(StandardCharsets.US_ASCII));
                assertThat(RawAnswers.read(other.getInputStream())).startsWith("HTTP/1.1 200 ");
            }
            String answer = RawAnswers.read(slow.getInputStream());
            answered.set(true);
            trickle.join();

            assertThat(answer).as(answer).startsWith("HTTP/1.1 408 ");
            JsonNode error = Json.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4).getBytes()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("request_timeout");
            assertThat(error.path("type").asText()).isEqualTo("timeout_error");
            assertThat(error.path("message").asText()).contains("request_head_timeout_seconds");
            assertThat(error.has("param")).isTrue();
            assertThat(RawAnswers.closedByPeer(slow)).isTrue();
            assertThat(upstream.requests()).isZero();
        }
    }

    @Test
    void connectionsPastTheBoundAreClosedUntilOneCloses() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try (TestGateway gateway = gateway("max_open_connections: 3")) {
            for (int i = 0; i < 3; i++) {
                Socket socket = new Socket("127.0.0.1", gateway.port());
                idle.add(socket);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(MODELS.getBytes(StandardCharsets.US_ASCII));
                assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 200 "); // counted, then kept alive
            }
            try (Socket fourth = new Socket("127.0.0.1", gateway.port())) {
                fourth.setSoTimeout(10_000);
                assertThat(RawAnswers.closedByPeer(fourth)).isTrue();
            }

            idle.remove(0).close();

            Eventually.until("a new connection is served once one closed", Duration.ofSeconds(10), () -> {
                try (Socket next = new Socket("127.0.0.1", gateway.port())) {
                    next.setSoTimeout(10_000);
                    next.getOutputStream().write(MODELS.getBytes(StandardCharsets.US_ASCII));
                    return RawAnswers.read(next.getInputStream()).startsWith("HTTP/1.1 200 ");
                } catch (IOException e) {
                    return false;
                }
            });
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }
}
