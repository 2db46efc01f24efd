package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What a client connection may hold before any route runs: how long its head may take, and how many may be open. */
class ConnectionLimitsTest {

    private static String config(ScriptedUpstream upstream, String general) {
        return Configs.singleDeployment(upstream.baseUrl(), "") + "general_settings:\n  " + general + "\n";
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(15_000);
        return socket;
    }

    private static String readToClose(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all); // returns once the gateway closed the connection; the read timeout is the deadline
        return all.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aHeadTrickledInSlowerThanTheTimeoutIsA408ThatClosesTheConnection() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.completion("ok"));
                TestGateway gateway = TestGateway.start(config(upstream, "request_head_timeout_seconds: 1"));
                Socket socket = connect(gateway.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("POST /v1/chat/completions HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            AtomicBoolean closed = new AtomicBoolean();
            Thread trickle = Thread.ofVirtual().start(() -> {
                // One header byte every 100 ms: bytes keep arriving, so no idle timeout fires.
                try {
                    while (!closed.get()) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    // the gateway closed the connection
                }
            });

            String answer = readToClose(socket);
            closed.set(true);
            trickle.join();

            assertThat(answer).startsWith("HTTP/1.1 408").contains("\"code\":\"request_head_timeout\"")
                    .contains("\"type\":\"timeout_error\"").containsIgnoringCase("connection: close");
            assertThat(upstream.calls()).isZero();
        }
    }

    @Test
    void aHeadThatArrivesInTimeIsServedAndTheNextOneOnTheConnectionToo() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.completion("ok"));
                TestGateway gateway = TestGateway.start(config(upstream, "request_head_timeout_seconds: 1"));
                Socket socket = connect(gateway.port())) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /health/liveliness HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write("GET /health/liveliness HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            String answers = readToClose(socket);

            assertThat(answers.split("HTTP/1.1 200", -1)).hasSize(3);
        }
    }

    @Test
    void connectionsOverTheBoundAreRefusedWith503AndRetryAfterUntilOneCloses() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.completion("ok"));
                TestGateway gateway = TestGateway.start(config(upstream, "max_open_connections: 2"))) {
            List<Socket> held = new ArrayList<>(List.of(connect(gateway.port()), connect(gateway.port())));
            try {
                // The two held ones are counted as their event loops take them: wait for a refusal.
                String refused = Eventually.value("a connection over the bound refused", Duration.ofSeconds(10), () -> {
                    try (Socket extra = connect(gateway.port())) {
                        extra.getOutputStream().write("GET /health/liveliness HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        String answer = readToClose(extra);
                        return answer.startsWith("HTTP/1.1 503") ? Optional.of(answer) : Optional.empty();
                    } catch (IOException e) {
                        return Optional.empty();
                    }
                });
                assertThat(refused).containsIgnoringCase("retry-after: 1").contains("\"code\":\"too_many_connections\"");

                held.remove(0).close();
                String served = Eventually.value("a connection let in once one closed", Duration.ofSeconds(10), () -> {
                    try (Socket next = connect(gateway.port())) {
                        next.getOutputStream().write("GET /health/liveliness HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        String answer = readToClose(next);
                        return answer.startsWith("HTTP/1.1 200") ? Optional.of(answer) : Optional.empty();
                    } catch (IOException e) {
                        return Optional.empty();
                    }
                });
                assertThat(served).startsWith("HTTP/1.1 200");
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }
}
