package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Server-sent events relayed chunk by chunk, and every way a stream can end badly. */
class StreamingTest {


    /** An event's data line and when the client read it. */
    record Event(String data, long atNanos) {}

    private static List<Event> readEvents(TestGateway gateway, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<Stream<String>> response = gateway.client().send(request, HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/event-stream"));
        assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("dep-1");
        List<Event> events = new ArrayList<>();
        try (Stream<String> lines = response.body()) {
            lines.filter(line -> line.startsWith("data: "))
                    .forEach(line -> events.add(new Event(line.substring(6), System.nanoTime())));
        }
        return events;
    }

    @Test
    void relaysEachChunkAsItArrivesEndingWithDone() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(600)));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            List<Event> events = readEvents(gateway, Chat.stream("chat", "one two three four five"));

            assertThat(events.size()).isGreaterThanOrEqualTo(4);
            assertThat(events.get(events.size() - 1).data()).isEqualTo("[DONE]");
            assertThat(Json.parse(events.get(0).data().getBytes()).get("object").asText()).isEqualTo("chat.completion.chunk");
            // The mock waits 60 ms between chunks: buffering the whole stream would make them arrive together.
            long spreadMs = TimeUnit.NANOSECONDS.toMillis(events.get(events.size() - 1).atNanos() - events.get(0).atNanos());
            assertThat(spreadMs).isGreaterThanOrEqualTo(100);
        }
    }

    @Test
    void includeUsageIsHonoured() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String withUsage = "{\"model\":\"chat\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                    + "\"messages\":[{\"role\":\"user\",\"content\":\"count me\"}]}";
            List<Event> events = readEvents(gateway, withUsage);
            List<Event> plain = readEvents(gateway, Chat.stream("chat", "count me"));

            assertThat(events).anySatisfy(e -> assertThat(e.data()).contains("\"usage\"").contains("total_tokens"));
            assertThat(plain).noneSatisfy(e -> assertThat(e.data()).contains("\"usage\""));
            assertThat(upstream.receivedBodies().get(0).at("/stream_options/include_usage").asBoolean()).isTrue();
        }
    }

    @Test
    void cutStreamEndsWithAnErrorEventAndNoDone() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.CUT));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            List<Event> events = readEvents(gateway, Chat.stream("chat", "one two three four five six"));

            assertThat(events).isNotEmpty();
            Event last = events.get(events.size() - 1);
            assertThat(Json.parse(last.data().getBytes()).at("/error/code").asText()).isEqualTo("stream_interrupted");
            assertThat(Json.parse(last.data().getBytes()).at("/error/message").asText()).contains("deployment 'dep-1'");
            assertThat(events).noneSatisfy(e -> assertThat(e.data()).isEqualTo("[DONE]"));
            assertThat(events.size()).isGreaterThanOrEqualTo(2); // the chunks sent before the cut got through
        }
    }

    @Test
    void stalledStreamEndsWithATimeoutEventAfterStreamTimeout() throws Exception {
        try (ScriptedUpstream stalling = ScriptedUpstream.always("stalling", Reply.stream(End.STALL,
                        Chunk.now("data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n")));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(stalling.baseUrl(), ", stream_timeout: 1, timeout: 10"))) {
            long started = System.nanoTime();
            List<Event> events = readEvents(gateway, Chat.stream("chat", "hi"));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(events).hasSize(2);
            assertThat(Json.parse(events.get(1).data().getBytes()).at("/error/code").asText()).isEqualTo("stream_timeout");
            assertThat(tookMs).isBetween(900L, 8000L);
        }
    }

    @Test
    void clientHangUpCancelsTheUpstreamStreamAtOnce() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.SLOW).withDelay(Duration.ofMillis(3000)));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String body = Chat.stream("chat", "a long answer that keeps streaming for a while longer than this test");
            try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                String line;
                while ((line = in.readLine()) != null && !line.startsWith("data: ")) {
                    // skip the head until the first event
                }
                assertThat(line).startsWith("data: ");
                assertThat(upstream.cancelledStreams()).isZero();
            }
            Eventually.until("the upstream sees its stream given up", Duration.ofSeconds(2), () -> upstream.cancelledStreams() >= 1);
            assertThat(upstream.cancelledStreams()).isEqualTo(1);
        }
    }

    @Test
    void clientHangUpCancelsAWaitingNonStreamingCall() throws Exception {
        try (MockUpstream upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.HANG));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String body = Chat.body("chat", "hi");
            try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                out.flush();
                Eventually.until("the call reaches the upstream", Duration.ofSeconds(2), () -> upstream.requests() >= 1);
                assertThat(upstream.requests()).isEqualTo(1);
            }
            Eventually.until("the upstream sees the call given up", Duration.ofSeconds(2), () -> upstream.cancelledStreams() >= 1);
            assertThat(upstream.cancelledStreams()).isEqualTo(1);
        }
    }
}
