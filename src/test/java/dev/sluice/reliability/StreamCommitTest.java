package dev.sluice.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.RawRequests;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A stream commits at its first whole event, even when the event and the break arrive in the
 * same read, before the relay has written anything: the event is the caller's, the break is
 * an error event after it, and the request is not silently retried elsewhere.
 */
class StreamCommitTest {

    @Test
    void eventAndBreakInOneReadAreTheCallersAndAreNotRetried() throws IOException {
        try (OneEventThenBroken cut = new OneEventThenBroken();
                MockUpstream healthy = MockUpstream.start(MockOptions.defaults("healthy", MockMode.OK));
                TestGateway gateway = TestGateway.start("""
                        model_list:
                          - {model_name: g, litellm_params: {model: openai/a, api_base: %s}, model_info: {id: a}}
                          - {model_name: g, litellm_params: {model: openai/b, api_base: %s, weight: 0}, model_info: {id: b}}
                        """.formatted(cut.baseUrl(), healthy.baseUrl()))) {
            HttpResponse<String> response = gateway.post("/v1/chat/completions", Chat.stream("g", "hi"));

            assertThat(cut.calls()).isEqualTo(1);
            assertThat(healthy.requests()).as("committed at the first event: no silent retry").isZero();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("x-litellm-model-id")).hasValue("a");
            assertThat(response.body()).contains("[cut]").contains("stream_interrupted").doesNotContain("[DONE]");
        }
    }

    /**
     * Answers 200 with an event stream whose first chunk is one whole event, followed in the
     * same write by a malformed chunk header, so the gateway decodes the event and the break
     * in one read.
     */
    private static final class OneEventThenBroken implements AutoCloseable {
        private static final String EVENT = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"[cut] \"},\"finish_reason\":null}]}\n\n";

        private final ServerSocket server;
        private final AtomicInteger calls = new AtomicInteger();

        OneEventThenBroken() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(this::serve);
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
        }

        int calls() {
            return calls.get();
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    RawRequests.read(socket.getInputStream());
                    calls.incrementAndGet();
                    int length = EVENT.getBytes(StandardCharsets.UTF_8).length;
                    OutputStream out = socket.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + Integer.toHexString(length) + "\r\n" + EVENT + "\r\n"
                            + "zz\r\n").getBytes(StandardCharsets.UTF_8)); // not a chunk size: the stream is broken
                    out.flush();
                    socket.setSoLinger(true, 0);
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
