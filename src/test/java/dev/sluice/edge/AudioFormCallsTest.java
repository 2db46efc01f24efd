package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.ScriptedUpstream;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import dev.sluice.vendors.mock.MockMode;
import dev.sluice.vendors.mock.MockOptions;
import dev.sluice.vendors.mock.MockUpstream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Transcriptions and translations through the gateway: the gateway reads {@code model} from
 * the multipart form to route it, sends the form on with the deployment's own model in its
 * place, prices it by the seconds of audio the answer reports, fails it over like any call,
 * and refuses a form without {@code model} or {@code file}, a body that is no form, and a
 * body over {@code max_request_size_mb}.
 */
class AudioFormCallsTest {
    private static final String BOUNDARY = "----sluice-test-boundary";

    private static MockUpstream mock;
    private static ScriptedUpstream broken;
    private static TestDatabase store;
    private static TestGateway gateway;

    @BeforeAll
    static void start() {
        mock = MockUpstream.start(MockOptions.defaults("ears", MockMode.OK));
        broken = ScriptedUpstream.always("broken", ScriptedUpstream.Reply.body(500, "application/json",
                "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\",\"param\":null,\"code\":null}}"));
        store = TestDatabases.h2();
        gateway = TestGateway.start("""
                model_list:
                  - {model_name: whisper, litellm_params: {model: openai/whisper-1, api_base: %1$s, input_cost_per_second: 0.0001}, model_info: {mode: audio_transcription}}
                  - {model_name: flaky-whisper, litellm_params: {model: openai/whisper-1, api_base: %2$s, weight: 1}}
                  - {model_name: flaky-whisper, litellm_params: {model: openai/whisper-large, api_base: %1$s, weight: 0}}
                general_settings:
                  master_key: %3$s
                  max_request_size_mb: 1
                  %4$s
                """.formatted(mock.baseUrl(), broken.baseUrl(), MediaCallsTest.MASTER, store.generalSetting()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        broken.close();
        mock.close();
        store.close();
    }

    /** A multipart form of {@code fields}, then a {@code file} part of {@code fileBytes} zero bytes unless it is negative. */
    private static byte[] form(Map<String, String> fields, int fileBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        fields.forEach((name, value) -> out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name
                + "\"\r\n\r\n" + value + "\r\n").getBytes(StandardCharsets.UTF_8)));
        if (fileBytes >= 0) {
            out.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"hello.wav\"\r\n"
                    + "Content-Type: audio/wav\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.writeBytes(new byte[fileBytes]);
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    private static HttpResponse<String> send(String path, byte[] body, String contentType) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri(path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + MediaCallsTest.MASTER).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    private static HttpResponse<String> sendForm(String path, Map<String, String> fields, int fileBytes) {
        return send(path, form(fields, fileBytes), "multipart/form-data; boundary=" + BOUNDARY);
    }

    private static Map<String, String> fields(String... pairs) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put(pairs[i], pairs[i + 1]);
        }
        return fields;
    }

    @Test
    void aTranscriptionGoesOnWithTheDeploymentsModelAndIsPricedBySeconds() throws IOException {
        HttpResponse<String> response = sendForm("/v1/audio/transcriptions",
                fields("model", "whisper", "language", "en", "response_format", "verbose_json"), 64_000);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = MediaCallsTest.json(response);
        assertThat(answer.path("text").asText()).isEqualTo("[ears] heard 64000 bytes of hello.wav");
        assertThat(answer.path("duration").asDouble()).isEqualTo(2.0);
        JsonNode received = mock.receivedBodies().getLast();
        assertThat(received.path("model").asText()).isEqualTo("whisper-1");
        assertThat(received.path("language").asText()).isEqualTo("en");
        assertThat(received.path("file_bytes").asInt()).isEqualTo(64_000);
        // 2 seconds at 0.0001 each
        assertThat(response.headers().firstValue("x-litellm-response-cost")).contains("0.0002");
        assertThat(MediaCallsTest.spendRow(store, response).cost().doubleValue()).isEqualTo(0.0002);
    }

    @Test
    void aTextTranscriptionPassesAsPlainText() {
        HttpResponse<String> response = sendForm("/audio/transcriptions", fields("model", "whisper", "response_format", "text"), 10);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(response.body()).isEqualTo("[ears] heard 10 bytes of hello.wav\n");
        assertThat(response.headers().firstValue("x-litellm-response-cost")).contains("0.0");
    }

    @Test
    void aTranslationIsRoutedTheSameWay() throws IOException {
        HttpResponse<String> response = sendForm("/v1/audio/translations", fields("model", "whisper"), 100);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(MediaCallsTest.json(response).path("text").asText()).isEqualTo("[ears] heard 100 bytes of hello.wav");
    }

    @Test
    void aDeploymentThatAnswers500FailsOverWithTheWholeForm() throws IOException {
        int before = broken.calls();
        HttpResponse<String> response = sendForm("/v1/audio/transcriptions", fields("model", "flaky-whisper"), 500);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(broken.calls() - before).isEqualTo(1);
        assertThat(MediaCallsTest.json(response).path("text").asText()).isEqualTo("[ears] heard 500 bytes of hello.wav");
        assertThat(mock.receivedBodies().getLast().path("model").asText()).isEqualTo("whisper-large");
    }

    @Test
    void aFormWithoutModelIsA400() {
        MediaCallsTest.assertError(sendForm("/v1/audio/transcriptions", fields("language", "en"), 10), 400,
                "{\"error\":{\"message\":\"Missing required parameter: 'model'.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"model\",\"code\":\"missing_required_parameter\"}}");
    }

    @Test
    void aFormWithoutFileIsA400() {
        MediaCallsTest.assertError(sendForm("/v1/audio/transcriptions", fields("model", "whisper"), -1), 400,
                "{\"error\":{\"message\":\"Missing required parameter: 'file'.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"file\",\"code\":\"missing_required_parameter\"}}");
    }

    @Test
    void aJsonBodyIsA400AskingForAForm() {
        MediaCallsTest.assertError(send("/v1/audio/transcriptions", "{\"model\":\"whisper\"}".getBytes(StandardCharsets.UTF_8),
                "application/json"), 400, "{\"error\":{\"message\":\"Content-Type must be multipart/form-data for "
                + "/v1/audio/transcriptions, but got 'application/json'.\",\"type\":\"invalid_request_error\",\"param\":null,"
                + "\"code\":\"invalid_content_type\"}}");
    }

    @Test
    void aFormThatDoesNotEndIsA400() {
        byte[] whole = form(fields("model", "whisper"), 10);
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 20);
        MediaCallsTest.assertError(send("/v1/audio/transcriptions", cut, "multipart/form-data; boundary=" + BOUNDARY), 400,
                "{\"error\":{\"message\":\"Malformed multipart/form-data body: it does not end with its closing boundary.\","
                        + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_multipart\"}}");
    }

    @Test
    void aFormOverTheSizeLimitIsA413() throws IOException {
        int before = mock.requests();
        HttpResponse<String> response = sendForm("/v1/audio/transcriptions", fields("model", "whisper"), 1536 * 1024);

        assertThat(response.statusCode()).isEqualTo(413);
        JsonNode error = MediaCallsTest.json(response).path("error");
        assertThat(error.path("code").asText()).isEqualTo("request_too_large");
        assertThat(error.path("message").asText()).contains("1048576 bytes");
        assertThat(mock.requests()).isEqualTo(before);
    }
}
