package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every kind of bad request gets a clear OpenAI-shaped error with the right status, and no upstream call. */
class BadInputTest {
    private static MockUpstream upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        upstream = MockUpstream.start(MockOptions.defaults("up", MockMode.OK));
        gateway = TestGateway.start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                  - model_name: embed
                    litellm_params: {model: openai/e, api_base: %s}
                general_settings:
                  max_request_size_mb: 1
                """.formatted(upstream.baseUrl(), upstream.baseUrl()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            malformed JSON        | {"model": "chat", "messages": [       | invalid_json               |          | parse the JSON body
            empty body            |                                        | invalid_json               |          | empty
            array body            | [1,2]                                  | invalid_type               |          | must be a JSON object, but got an array
            string body           | "hello"                                | invalid_type               |          | but got a string
            missing model         | {"messages":[{"role":"user","content":"x"}]} | missing_required_parameter | model | Missing required parameter: 'model'
            numeric model         | {"model":42,"messages":[{"role":"user","content":"x"}]} | invalid_type | model | expected a string, but got an integer
            blank model           | {"model":" ","messages":[{"role":"user","content":"x"}]} | invalid_value | model | empty string
            missing messages      | {"model":"chat"}                       | missing_required_parameter | messages | 'messages'
            messages not array    | {"model":"chat","messages":"hi"}       | invalid_type               | messages | expected an array, but got a string
            empty messages        | {"model":"chat","messages":[]}         | empty_array                | messages | empty array
            message not object    | {"model":"chat","messages":["hi"]}     | invalid_type               | messages[0] | expected an object
            message without role  | {"model":"chat","messages":[{"content":"x"}]} | missing_required_parameter | messages[0].role | 'messages[0].role'
            stream not boolean    | {"model":"chat","stream":"yes","messages":[{"role":"user","content":"x"}]} | invalid_type | stream | expected a boolean
            unknown model         | {"model":"gpt-9","messages":[{"role":"user","content":"x"}]} | model_not_found | model | Model groups you may use: chat, embed
            """)
    void chatBodyIsRefusedWith400(String name, String body, String code, String param, String message) throws IOException {
        HttpResponse<String> response = gateway.post("/v1/chat/completions", body == null ? "" : body);

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = errorOf(response);
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("code").asText()).isEqualTo(code);
        assertThat(error.get("param").isNull() ? null : error.get("param").asText()).isEqualTo(param);
        assertThat(error.get("message").asText()).contains(message);
        assertThat(upstream.requests()).isZero();
    }

    @Test
    void embeddingsNeedInputAndCompletionsNeedPrompt() throws IOException {
        HttpResponse<String> embedding = gateway.post("/v1/embeddings", "{\"model\":\"embed\"}");
        HttpResponse<String> completion = gateway.post("/v1/completions", "{\"model\":\"chat\",\"prompt\":5}");

        assertThat(embedding.statusCode()).isEqualTo(400);
        assertThat(errorOf(embedding).get("param").asText()).isEqualTo("input");
        assertThat(completion.statusCode()).isEqualTo(400);
        assertThat(errorOf(completion).get("message").asText()).contains("'prompt'").contains("a string or an array");
    }

    @Test
    void unknownRouteIs404() throws IOException {
        HttpResponse<String> response = gateway.post("/v1/nothing-here", "{}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(errorOf(response).get("message").asText()).contains("Unknown route: POST /v1/nothing-here");
    }

    @Test
    void wrongMethodIs405WithAllow() throws IOException {
        HttpResponse<String> response = gateway.get("/v1/chat/completions");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
        assertThat(errorOf(response).get("code").asText()).isEqualTo("method_not_allowed");
    }

    @Test
    void oversizedBodyIsA413TheClientCanRead() throws IOException {
        byte[] big = new byte[2 * 1024 * 1024];
        Arrays.fill(big, (byte) 'a');
        String body = "{\"model\":\"chat\",\"messages\":[{\"role\":\"user\",\"content\":\"" + new String(big, StandardCharsets.US_ASCII) + "\"}]}";

        HttpResponse<String> response = gateway.post("/v1/chat/completions", body);

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(errorOf(response).get("code").asText()).isEqualTo("request_too_large");
        assertThat(errorOf(response).get("message").asText()).contains("1048576 bytes");
        assertThat(upstream.requests()).isZero();
    }

    @Test
    void oversizedBodyAnnouncedWithExpectContinueIsRefusedBeforeItIsSent() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 50000000\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = readHead(socket.getInputStream());
            assertThat(head).startsWith("HTTP/1.1 413");
        }
    }

    @Test
    void oversizedChunkedBodyIsA413Too() throws IOException {
        byte[] big = new byte[3 * 1024 * 1024];
        Arrays.fill(big, (byte) ' ');
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big)))
                .build();

        HttpResponse<String> response = gateway.send(request);

        assertThat(response.statusCode()).isEqualTo(413);
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.toString().endsWith("\r\n\r\n")) {
                break;
            }
        }
        return head.toString();
    }

    private static JsonNode errorOf(HttpResponse<String> response) throws IOException {
        JsonNode error = Json.parse(response.body().getBytes()).get("error");
        assertThat(error).as("OpenAI error shape in %s", response.body()).isNotNull();
        assertThat(error.has("message") && error.has("type") && error.has("param") && error.has("code")).isTrue();
        return error;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            /model/info?litellm_model_id=%ZZ        | litellm_model_id
            /v1/model/info?litellm_model_id=%4      | litellm_model_id
            /health?model=%ZZ                       | model
            /health?x=1&model=ok%E                  | model
            """)
    void queryStringsThatAreNotPercentEncodingAreA400NamingTheParameter(String path, String param) throws IOException {
        // Sent over a raw socket: an HTTP client refuses to build such a URI at all.
        String answer;
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(answer).as(answer).startsWith("HTTP/1.1 400 ");
        JsonNode error = Json.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4).getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("invalid_query");
        assertThat(error.path("param").asText()).isEqualTo(param);
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).startsWith("The query string is malformed in '" + param + "'");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a NUL in the value of a key header | GET /v1/models HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer sk-secret-123\\0x\\r\\n\\r\\n | a header value contains a prohibited character
            a control byte in a header name | GET /v1/models HTTP/1.1\\r\\nHost: x\\r\\nX-Bad\\1Name: sk-secret-123\\r\\n\\r\\n | a header name cannot contain some prohibited characters
            a request line with a space | GET /v1/mo dels?sk-secret-123 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n | invalid version format
            """)
    void unparsableRequestsAreToldWhatIsWrongWithoutWhatWasSent(String what, String raw, String said) throws IOException {
        String answer;
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(raw.translateEscapes().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        // A request line the parser cannot read has no version either: the answer is HTTP/1.0.
        assertThat(answer).as(what).matches("(?s)HTTP/1\\.[01] 400 .*").doesNotContainIgnoringCase("secret");
        JsonNode error = Json.parse(answer.substring(answer.indexOf("\r\n\r\n") + 4).getBytes()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("malformed_http");
        assertThat(error.path("message").asText()).startsWith("The request is not valid HTTP: " + said).endsWith(".");
    }
}
