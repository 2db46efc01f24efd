package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Chat;
import dev.sluice.testing.RawAnswers;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the UI's sign-in, the one route that reads a body before it knows who calls, costs a
 * caller without a key: a few KB of reading, within a budget of its own, never the heap.
 */
class UnauthenticatedBodiesTest {
    private static final String MASTER = "sk-master-bodies";
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.chat(upstream.baseUrl(), "master_key: " + MASTER);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    /** {"key":"x","pad":[{},{},…]}: three megabytes that parse into a million objects. */
    private static String padded(int objects) {
        StringBuilder body = new StringBuilder("{\"key\":\"x\",\"pad\":[");
        for (int i = 0; i < objects; i++) {
            body.append(i == 0 ? "{}" : ",{}");
        }
        return body.append("]}").toString();
    }

    @Test
    void aThreeMegabyteSignInIsRefusedUnreadAndOrdinaryCallsGoOn() throws Exception {
        HttpResponse<String> refused = gateway.post("/ui/api/session", padded(1_000_000));

        assertThat(refused.statusCode()).isEqualTo(413);
        JsonNode error = Json.parse(refused.body().getBytes(StandardCharsets.UTF_8)).path("error");
        assertThat(error.path("code").asText()).isEqualTo("request_too_large");
        assertThat(error.path("message").asText()).contains("4096 bytes");
        assertThat(gateway.metric("sluice_unauthenticated_body_bytes_held")).isZero();

        HttpResponse<String> served = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"),
                "Authorization", "Bearer " + MASTER);
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(gateway.get("/health/liveliness").statusCode()).isEqualTo(200);
    }

    @Test
    void aSmallSignInThatParsesIntoManyNodesIsRefusedBeforeTheKeyIsLookedAt() {
        HttpResponse<String> refused = gateway.post("/ui/api/session", padded(1000));

        assertThat(refused.statusCode()).isEqualTo(413);
        assertThat(refused.body()).contains("json_too_large");
    }

    @Test
    void aLargeDeclaredSignInGetsNoContinueAndIsAnswered413() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /ui/api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: 13000000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();

            String answer = RawAnswers.read(socket.getInputStream());

            assertThat(answer).as(answer).startsWith("HTTP/1.1 413 ").doesNotContain("100 Continue").containsIgnoringCase("connection: close");
            assertThat(RawAnswers.closedByPeer(socket)).isTrue();
        }
    }

    @Test
    void aSignInThatWithinItsLimitsStillWorks() {
        HttpResponse<String> signedIn = gateway.post("/ui/api/session", "{\"key\":\"" + MASTER + "\"}");

        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(signedIn.headers().firstValue("Set-Cookie")).isPresent();
    }

    @Test
    void bodiesReadWithoutAKeyHoldOnlyTheirOwnBudgetNotTheCallsOne() throws Exception {
        Socket[] stalled = new Socket[80];
        try {
            for (int i = 0; i < stalled.length; i++) {
                stalled[i] = new Socket("127.0.0.1", gateway.port());
                stalled[i].getOutputStream().write(("POST /ui/api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 4000\r\n\r\n{\"key\":").getBytes(StandardCharsets.US_ASCII));
            }
            HttpResponse<String> served = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"),
                    "Authorization", "Bearer " + MASTER);

            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(gateway.metric("sluice_unauthenticated_body_bytes_held"))
                    .isLessThanOrEqualTo(dev.sluice.http.BodyLimits.UNAUTHENTICATED_BUDGET_BYTES);
        } finally {
            for (Socket socket : stalled) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        gateway.awaitMetric("the stalled sign-ins' bytes are given back", "sluice_unauthenticated_body_bytes_held", 0);
    }
}
