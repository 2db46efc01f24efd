package dev.sluice.boot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.GatewayProcess;
import dev.sluice.testing.LoopbackClients;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar under its own launcher's heap and settings, attacked without a key: a 3 MB
 * sign-in of a million JSON nodes, 10,000 idle connections, and declared body lengths that
 * add up to the body budget. After each, ordinary calls answer in their usual time and
 * liveness passes, within seconds of the attack ending, and nothing ran out of memory.
 */
class EdgeAttacksIT {
    private static final String MASTER = "sk-master-edge-attacks";
    @TempDir
    static Path folder;
    private static MockUpstream upstream;
    private static GatewayProcess gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = GatewayProcess.start("edge", """
                model_list:
                  - {model_name: chat, litellm_params: {model: openai/m, api_base: %s}}
                general_settings:
                  master_key: %s
                """.formatted(upstream.baseUrl(), MASTER), folder);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    /**
     * Within seconds of an attack (a heap that shed under it takes work again once a full
     * collection finds it freed), an ordinary call and a liveness probe each answered within
     * two seconds.
     */
    private static void servesAsUsual() {
        Eventually.until("ordinary calls are served again", Duration.ofSeconds(10), () -> gateway.post("/v1/chat/completions",
                Chat.body("chat", "hi"), "Authorization", "Bearer " + MASTER).statusCode() == 200);
        long started = System.nanoTime();
        HttpResponse<String> call = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"), "Authorization", "Bearer " + MASTER);
        assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
        assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(gateway.output()).doesNotContain("OutOfMemoryError");
    }

    @Test
    void threeMegabyteSignInsOfAMillionNodesCostNothing() throws Exception {
        StringBuilder padded = new StringBuilder("{\"key\":\"x\",\"pad\":[");
        for (int i = 0; i < 1_000_000; i++) {
            padded.append(i == 0 ? "{}" : ",{}");
        }
        String body = padded.append("]}").toString();
        Concurrently.run(6, Duration.ofSeconds(60), i -> {
            for (int round = 0; round < 3; round++) {
                HttpResponse<String> refused = gateway.send(HttpRequest.newBuilder(gateway.uri("/ui/api/session"))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
                assertThat(refused.statusCode()).isEqualTo(413);
            }
        });
        servesAsUsual();
    }

    @Test
    void tenThousandIdleConnectionsAreShedAndTheGatewayRecoversWhenTheyGo() throws Exception {
        List<Socket> idle = LoopbackClients.idle(gateway.port(), 10_000, 200);
        try {
            assertThat(gateway.metric("sluice_connections_refused_total{reason=\"too_many\"}"))
                    .as("past what the heap holds, connections are closed as they are accepted").isPositive();
        } finally {
            LoopbackClients.closeAll(idle);
        }
        Eventually.until("the idle connections are gone", Duration.ofSeconds(20),
                () -> gateway.metric("sluice_open_connections") <= 2);
        servesAsUsual();
    }

    @Test
    void declaredLengthsAddingUpToTheBudgetHoldNothing() throws Exception {
        Socket[] silent = new Socket[40];
        try {
            for (int i = 0; i < silent.length; i++) {
                silent[i] = new Socket();
                silent[i].bind(new InetSocketAddress(LoopbackClients.address(500 + i), 0));
                silent[i].connect(new InetSocketAddress("127.0.0.1", gateway.port()));
                OutputStream out = silent[i].getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + MASTER
                        + "\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            servesAsUsual();
        } finally {
            for (Socket socket : silent) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        servesAsUsual();
    }
}
