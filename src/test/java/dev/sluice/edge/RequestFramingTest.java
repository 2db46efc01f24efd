package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Heads whose body framing a proxy in front could read another way are refused with a 400
 * and the connection closed, so a request smuggled behind them never runs.
 */
class RequestFramingTest {
    private static final String CHAT = "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                """.formatted(upstream.baseUrl()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @BeforeEach
    void clear() {
        upstream.reset();
    }

    /** A whole chat request, to be smuggled behind the head under test. */
    private static String smuggled() {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + CHAT.length() + "\r\n\r\n" + CHAT;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Content-Length and chunked         | Content-Length: 5\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\n | both given
            a coding other than chunked        | Transfer-Encoding: xchunked\\r\\n\\r\\n                                     | exactly chunked
            chunked after another coding       | Transfer-Encoding: gzip, chunked\\r\\n\\r\\n0\\r\\n\\r\\n                 | exactly chunked
            two Transfer-Encoding lines        | Transfer-Encoding: chunked\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\n | exactly chunked
            a folded header line               | X-Note: one\\r\\n two\\r\\nContent-Length: 0\\r\\n\\r\\n                  | folded
            a folded line after a tab          | X-Note: one\\r\\n\\ttwo\\r\\nContent-Length: 0\\r\\n\\r\\n                | folded
            """)
    void ambiguousFramingIsA400ThatClosesTheConnectionAndRunsNothingBehindIt(String what, String headers, String said)
            throws IOException {
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + headers.replace("\\r", "\r").replace("\\n", "\n").replace("\\t", "\t");

        String answer = exchange(head + smuggled());

        assertThat(answer).as(answer).startsWith("HTTP/1.1 400 ");
        assertThat(answer.indexOf("HTTP/1.1", 1)).as("one answer only: " + answer).isNegative();
        JsonNode error = Json.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4).getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("ambiguous_framing");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.has("param")).isTrue();
        assertThat(error.path("message").asText()).contains(said);
        assertThat(upstream.requests()).isZero();
    }

    @Test
    void plainChunkedAndPipelinedRequestsAreStillServed() throws IOException {
        String chunked = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(CHAT.length()) + "\r\n" + CHAT + "\r\n0\r\n\r\n";
        String last = "GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

        String answer = exchange(chunked + smuggled() + last);

        assertThat(answer.split("HTTP/1.1 200 ", -1)).as(answer).hasSize(4);
        assertThat(upstream.requests()).isEqualTo(2);
    }

    /** Sends the bytes at once and reads until the gateway closes the connection. */
    private static String exchange(String bytes) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
