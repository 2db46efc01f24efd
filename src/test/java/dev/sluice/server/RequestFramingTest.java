package dev.sluice.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Chat;
import dev.sluice.testing.Configs;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.ScriptedUpstream.Reply;
import dev.sluice.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Requests whose framing two HTTP parsers could read differently (RFC 9112): each is refused
 * with 400 and its connection closed, so a second request hidden in it never runs.
 */
class RequestFramingTest {

    /** Writes {@code raw} and reads until the gateway closes the connection (a read timeout fails the test). */
    static String exchange(int port, String raw) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all); // returns only once the gateway has closed the connection
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    static String smuggled() {
        String body = Chat.body("chat", "smuggled");
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "Content-Length and Transfer-Encoding | Content-Length: 5\\r\\nTransfer-Encoding: chunked\\r\\n | 0\\r\\n\\r\\n"
                    + " | both Content-Length and Transfer-Encoding",
            "Transfer-Encoding xchunked | Transfer-Encoding: xchunked\\r\\n | | the only Transfer-Encoding accepted is chunked",
            "two Transfer-Encodings | Transfer-Encoding: chunked\\r\\nTransfer-Encoding: chunked\\r\\n | 0\\r\\n\\r\\n"
                    + " | the only Transfer-Encoding accepted is chunked",
            "a folded header line | X-Note: a\\r\\n folded\\r\\nContent-Length: 0\\r\\n | | a header line is folded"})
    void ambiguousFramingIsA400ThatClosesTheConnection(String what, String headers, String body, String said) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.completion("ok"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String raw = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + unescape(headers) + "\r\n" + unescape(body == null ? "" : body) + smuggled();

            String answer = exchange(gateway.port(), raw);

            assertThat(answer).startsWith("HTTP/1.1 400").contains("\"code\":\"ambiguous_framing\"").contains(said)
                    .containsIgnoringCase("connection: close");
            assertThat(answer.indexOf("HTTP/1.1", 1)).as("one answer only").isEqualTo(-1);
            // A plain call after it reaches the upstream: the hidden one would have come first.
            HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(Chat.body("chat", "plain"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).isEqualTo(200);
            Eventually.equal("upstream calls", upstream::calls, 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "chunked alone | Transfer-Encoding: chunked\\r\\n",
            "Content-Length alone | Content-Length: ",
            "a space inside a value | X-Note: a b c\\r\\nContent-Length: "})
    void wellFramedRequestsStillRun(String what, String headers) throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.always("up", Reply.completion("ok"));
                TestGateway gateway = TestGateway.start(Configs.singleDeployment(upstream.baseUrl(), ""))) {
            String body = Chat.body("chat", "hi");
            String framed = headers.strip().endsWith(":") ? unescape(headers) + " " + body.length() + "\r\n\r\n" + body
                    : unescape(headers) + "\r\n" + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
            String raw = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + framed;

            assertThat(exchange(gateway.port(), raw)).startsWith("HTTP/1.1 200");
            assertThat(upstream.calls()).isEqualTo(1);
        }
    }

    private static String unescape(String text) {
        return text.strip().replace("\\r\\n", "\r\n");
    }
}
