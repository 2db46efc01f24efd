package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.RawAnswers;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Connections per client address, the proxies trusted to name the client, and how long a
 * kept-alive connection waits for its next request.
 */
class EdgeConnectionsTest {
    private static final String MODELS = "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n";
    private static MockUpstream upstream;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(2500)));
    }

    @AfterAll
    static void stop() {
        upstream.close();
    }

    private static TestGateway gateway(String general) {
        return TestGateway.chat(upstream.baseUrl(), general);
    }

    private static Socket served(TestGateway gateway) throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.port());
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(MODELS.getBytes(StandardCharsets.US_ASCII));
        assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
        return socket;
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    @Test
    void anAddressPastItsConnectionsIsClosedAtAcceptAndServedAgainOnceOneCloses() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (TestGateway gateway = gateway("max_connections_per_ip: 3")) {
            for (int i = 0; i < 3; i++) {
                held.add(served(gateway));
            }
            try (Socket fourth = new Socket("127.0.0.1", gateway.port())) {
                fourth.setSoTimeout(10_000);
                assertThat(RawAnswers.closedByPeer(fourth)).isTrue();
            }
            held.remove(0).close();
            Eventually.until("the address is served again once one of its connections closed", Duration.ofSeconds(10), () -> {
                try (Socket next = served(gateway)) {
                    return true;
                } catch (IOException | AssertionError e) {
                    return false;
                }
            });
            closeAll(held);
            held.clear();
            assertThat(gateway.metric("sluice_connections_refused_total{reason=\"per_address\"}")).isGreaterThanOrEqualTo(1);
        } finally {
            closeAll(held);
        }
    }

    @Test
    void aTrustedProxyIsHeldOnlyToTheBoundInAll() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (TestGateway gateway = gateway("max_connections_per_ip: 2\ntrusted_proxies: [127.0.0.0/8]")) {
            for (int i = 0; i < 6; i++) {
                held.add(served(gateway));
            }
            assertThat(gateway.metric("sluice_open_connections")).isGreaterThanOrEqualTo(6);
        } finally {
            closeAll(held);
        }
    }

    @Test
    void aKeptAliveConnectionIsClosedOnceItWaitsPastTheKeepAliveTimeout() throws Exception {
        try (TestGateway gateway = gateway("keep_alive_timeout_seconds: 1");
                Socket socket = served(gateway)) {
            long answered = System.nanoTime();

            assertThat(RawAnswers.closedByPeer(socket)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - answered)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        }
    }

    @Test
    void aCallThatOutlastsTheKeepAliveTimeoutIsNotCutAndItsConnectionServesTheNext() throws Exception {
        try (TestGateway gateway = gateway("keep_alive_timeout_seconds: 1");
                Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(15_000);
            String body = Chat.body("chat", "hi"); // the upstream answers after 2.5 s
            String call = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body;
            socket.getOutputStream().write(call.getBytes(StandardCharsets.US_ASCII));
            assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 200 ");

            socket.getOutputStream().write(MODELS.getBytes(StandardCharsets.US_ASCII));
            assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void aConnectionAnsweredBeforeItsBodyArrivedIsClosedOnceItGoesSilent() throws Exception {
        try (TestGateway gateway = gateway("master_key: sk-master-edge\nkeep_alive_timeout_seconds: 1");
                Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000000\r\n\r\n{\"model\":").getBytes(StandardCharsets.US_ASCII));
            assertThat(RawAnswers.read(socket.getInputStream())).startsWith("HTTP/1.1 401 ");

            assertThat(RawAnswers.closedByPeer(socket)).as("closed, not held until the idle timeout").isTrue();
        }
    }

    @Test
    void behindATrustedProxyBadKeysCountAgainstTheForwardedClientNotTheProxy() {
        try (TestGateway gateway = gateway("""
                master_key: sk-master-edge
                trusted_proxies: [127.0.0.0/8]
                auth_failure_limit: 3
                auth_failure_window_seconds: 600""")) {
            for (int i = 0; i < 3; i++) {
                assertThat(badKey(gateway, "203.0.113.7").statusCode()).isEqualTo(401);
            }
            assertThat(badKey(gateway, "203.0.113.7").statusCode()).isEqualTo(429);
            assertThat(badKey(gateway, "203.0.113.8").statusCode()).as("another client behind the same proxy").isEqualTo(401);
        }
    }

    @Test
    void withoutTrustedProxiesTheForwardedHeaderIsIgnored() {
        try (TestGateway gateway = gateway("""
                master_key: sk-master-edge
                auth_failure_limit: 3
                auth_failure_window_seconds: 600""")) {
            for (int i = 0; i < 3; i++) {
                badKey(gateway, "203.0.113." + i);
            }
            assertThat(badKey(gateway, "203.0.113.99").statusCode()).as("the peer counted, whatever it claims").isEqualTo(429);
        }
    }

    private static HttpResponse<String> badKey(TestGateway gateway, String forwardedFor) {
        return gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "Authorization", "Bearer sk-wrong",
                "X-Forwarded-For", forwardedFor);
    }
}
