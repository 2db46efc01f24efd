package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RawRequests;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Chunk;
import dev.sluice.testing.ScriptedUpstream.End;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An upstream body that ends without {@code data: [DONE]} and without a {@code finish_reason}
 * is a cut answer, whether it ends by closing the connection or with a clean last chunk: the
 * caller gets the {@code stream_interrupted} error event, never a stream that looks whole. A
 * call that did not ask to stream and is answered with an event stream gets its error at once.
 */
class EarlyStreamEndTest {
    private static final String CONFIG = """
            model_list:
              - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
            """;

    @Test
    void aCleanChunkedEndWithoutDoneOrFinishReasonIsInterrupted() {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("early",
                Reply.stream(End.COMPLETE, Chunk.now(Reply.delta("[early] part"))));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("[early] part").contains("\"code\":\"stream_interrupted\"")
                    .contains("without [DONE] or a finish_reason").doesNotContain("[DONE]\n");
            gateway.awaitMetric("the cut stream is counted",
                    "sluice_stream_interruptions_total{deployment=\"a\",model_group=\"g\"}", 1.0);
        }
    }

    @Test
    void aCloseDelimitedBodyThatEndsEarlyIsInterrupted() throws IOException {
        try (CloseDelimited upstream = new CloseDelimited(Reply.delta("[closed] part"));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("[closed] part").contains("\"code\":\"stream_interrupted\"");
        }
    }

    @Test
    void aFinishReasonWithoutDoneIsAWholeAnswer() throws IOException {
        String last = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{},\"finish_reason\": \"stop\"}]}\n\n";
        try (CloseDelimited upstream = new CloseDelimited(Reply.delta("[whole] all") + last);
                TestGateway gateway = TestGateway.start(CONFIG.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("[whole] all").doesNotContain("stream_interrupted").doesNotContain("error");
        }
    }

    @Test
    void aDoneWithoutFinishReasonIsAWholeAnswer() {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("done",
                Reply.stream(End.COMPLETE, Chunk.now(Reply.delta("[done] all") + "data: [DONE]\n\n")));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(upstream.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(response.body()).contains("[done] all").contains("data: [DONE]").doesNotContain("stream_interrupted");
        }
    }

    @Test
    void aCallNotAskingToStreamAnsweredWithAnEndlessEventStreamGetsItsErrorAtOnce() {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("sse",
                Reply.stream(End.STALL, Chunk.now(Reply.delta("[sse] part"))));
                TestGateway gateway = TestGateway.start(CONFIG.formatted(upstream.baseUrl()))) {
            long started = System.nanoTime();
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.body("g", "hi"));

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(response.body()).contains("\"error\":{").contains("text/event-stream").contains("\"type\":");
        }
    }

    /** Answers every call with a 200 event stream that has no length and no chunking: its end is the connection's close. */
    private static final class CloseDelimited implements AutoCloseable {
        private final ServerSocket server;
        private final String events;

        CloseDelimited(String events) throws IOException {
            this.events = events;
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(this::serve);
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    RawRequests.read(socket.getInputStream());
                    OutputStream out = socket.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + events)
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (IOException e) {
                    // closed: the test is over
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
