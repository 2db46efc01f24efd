package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Callers and upstreams that behave unusually, and what Sluice makes of them. */
class EdgeCasesTest {

    private static String rawExchange(int port, String request, int soTimeoutMs, int pauseBeforeReadingMs) throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(soTimeoutMs);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            // A caller slow on purpose: it reads nothing for this long, so the gateway's writes back up.
            Thread.sleep(pauseBeforeReadingMs);
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    private static String post(String path, String body, String version) {
        return "POST " + path + " " + version + "\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
    }

    @Test
    void aSlowCallerDoesNotTripTheUpstreamStallDeadline() throws Exception {
        String event = "data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(1000) + "\"}}]}\n\n";
        Chunk[] events = new Chunk[8001];
        Arrays.fill(events, Chunk.now(event));
        events[8000] = Chunk.now("data: [DONE]\n\n");
        try (ScriptedUpstream fast = ScriptedUpstream.always("fast", Reply.stream(End.COMPLETE, events));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(fast.baseUrl(), ", stream_timeout: 1"))) {
            // The caller stops reading for three times the stall deadline; a loaded machine may
            // still pause the upstream's own writes for a good part of a second.
            String answer = rawExchange(gateway.port(), post("/v1/chat/completions", Chat.stream("chat", "hi"), "HTTP/1.1"), 20_000, 3000);

            assertThat(answer).doesNotContain("stream_timeout").contains("data: [DONE]");
        }
    }

    @Test
    void anHttp10CallerGetsTheStreamWholeWithItsLength() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String answer = rawExchange(gateway.port(), post("/v1/chat/completions", Chat.stream("chat", "hi"), "HTTP/1.0"), 5000, 0);

            assertThat(answer).startsWith("HTTP/1.0 200").containsIgnoringCase("content-length:")
                    .containsIgnoringCase("text/event-stream").contains("data: [DONE]");
        }
    }

    @Test
    void retryAfterPassesAndProviderHeadersArePrefixed() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.RATELIMIT).withRetryAfterSeconds(7));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(429);
            assertThat(response.headers().firstValue("retry-after")).hasValue("7");
        }
    }

    @Test
    void aRedirectingUpstreamIsA502ThatNamesTheRedirect() throws IOException {
        try (ScriptedUpstream redirecting = ScriptedUpstream.always("redirecting",
                        Reply.body(307, null, "", "Location", "https://elsewhere/v1/chat/completions"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(redirecting.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi"));

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(Json.parse(response.body().getBytes()).at("/error/message").asText()).contains("307").contains("https://elsewhere");
        }
    }

    @Test
    void trailingDataAfterTheJsonIsMalformed() throws IOException {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("chat", "hi") + " trailing");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(Json.parse(response.body().getBytes()).at("/error/code").asText()).isEqualTo("invalid_json");
            assertThat(upstream.requests()).isZero();
        }
    }

    @Test
    void everyAnswerCarriesACallIdEvenUnroutedOnes() {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            assertThat(gateway.get("/nowhere").headers().firstValue("x-litellm-call-id")).isPresent();
            assertThat(gateway.get("/health/liveliness").headers().firstValue("x-litellm-call-id")).isPresent();
            assertThat(gateway.get("/v1/models").headers().firstValue("x-litellm-call-id")).isPresent();
        }
    }

    @Test
    void headersTooLargeAreA431InOpenAisShape() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String answer = rawExchange(gateway.port(),
                    "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n", 5000, 0);

            assertThat(answer).startsWith("HTTP/1.1 431").contains("\"code\":\"headers_too_large\"");
        }
    }
}
