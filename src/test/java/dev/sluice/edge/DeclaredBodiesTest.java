package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RawAnswers;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The body budget holds bytes that arrived, not lengths declared: connections that declare
 * the whole budget and send nothing hold nothing, calls with bodies are served beside them,
 * and each silent body is cut after request_body_timeout_seconds.
 */
class DeclaredBodiesTest {
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.chat(upstream.baseUrl(), """
                max_buffered_request_mb: 4
                request_body_timeout_seconds: 1
                """);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    private static Socket declaring(int bytes, String sent) throws Exception {
        Socket socket = new Socket("127.0.0.1", gateway.port());
        socket.setSoTimeout(15_000);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes + "\r\n\r\n" + sent).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    @Test
    void declaredLengthsThatAddUpToTheBudgetHoldNothingAndAreCutWhenSilent() throws Exception {
        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                silent.add(declaring(1024 * 1024, "")); // 40 MB declared against a 4 MB budget
            }
            for (int i = 0; i < 5; i++) {
                assertThat(gateway.post("/v1/chat/completions", Chat.body("chat", "hi")).statusCode()).isEqualTo(200);
            }
            assertThat(gateway.metric("sluice_request_body_bytes_held")).isLessThan(64 * 1024);

            for (Socket socket : silent) {
                String answer = RawAnswers.read(socket.getInputStream());
                assertThat(answer).startsWith("HTTP/1.1 408 ").contains("request_body_timeout_seconds");
                assertThat(RawAnswers.closedByPeer(socket)).isTrue();
            }
        } finally {
            for (Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void aBodyThatKeepsSendingWithinTheIdleTimeoutIsServed() throws Exception {
        String body = Chat.body("chat", "hi");
        try (Socket socket = declaring(body.length(), "")) {
            OutputStream out = socket.getOutputStream();
            for (byte b : body.getBytes(StandardCharsets.US_ASCII)) {
                out.write(b);
                out.flush();
                if (b == ',') {
                    Thread.sleep(600); // under the 1 s idle timeout between bytes, over it in all
                }
            }
            assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
        }
    }
}
