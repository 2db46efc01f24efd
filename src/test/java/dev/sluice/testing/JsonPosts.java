package dev.sluice.testing;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/** The JSON POST every gateway fixture sends: a 20 s timeout, a JSON body, and extra header name/value pairs. */
final class JsonPosts {
    private JsonPosts() {}

    static HttpRequest of(URI uri, String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request.build();
    }
}
