package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The JDK's HTTP client, speaking HTTP/1.1 to a mock, with JSON helpers. */
public final class UpstreamClient {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();

    /** POSTs {@code body} to {@code path} under the mock's root, e.g. {@code /v1/chat/completions}. */
    public HttpResponse<String> post(MockUpstream mock, String path, String body, String... headers) {
        return send(request(mock, path, headers).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<InputStream> postStreaming(MockUpstream mock, String path, String body) {
        return send(request(mock, path).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    HttpResponse<String> get(MockUpstream mock, String path) {
        return send(request(mock, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> chat(MockUpstream mock, String userText) {
        return post(mock, "/v1/chat/completions", chatBody("gpt-4o", userText, false));
    }

    static String chatBody(String model, String userText, boolean stream) {
        return """
                {"model":"%s","stream":%s,"messages":[{"role":"system","content":"be brief"},\
                {"role":"user","content":%s}]}""".formatted(model, stream, quote(userText));
    }

    public static JsonNode json(HttpResponse<String> response) {
        return json(response.body());
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException notJson) {
            throw new UncheckedIOException("not JSON: " + text, notJson);
        }
    }

    static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException cannotHappen) {
            throw new UncheckedIOException(cannotHappen);
        }
    }

    private HttpRequest.Builder request(MockUpstream mock, String path, String... headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port() + path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json");
        if (headers.length > 0) {
            builder.headers(headers);
        }
        return builder;
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
