package dev.sluice.ops.callbacks;

import dev.sluice.failure.RetryAfter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Posts batches as JSON to one URL with the JDK's HTTP client, on the sender's own thread:
 * nothing of it runs on an event loop. Every way a post can go wrong becomes a
 * {@link SendResult}; none throws.
 */
final class HttpBatchSender implements BatchSender {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final URI endpoint;
    private final Map<String, String> headers;
    private final BatchFormat format;
    private final Clock clock;

    /** @param headers sent with every post, after {@code Content-Type: application/json} */
    HttpBatchSender(HttpClient http, URI endpoint, Map<String, String> headers, BatchFormat format, Clock clock) {
        this.http = http;
        this.endpoint = endpoint;
        this.headers = Map.copyOf(headers);
        this.format = format;
        this.clock = clock;
    }

    /** A client for callbacks: short connect timeout, HTTP/1.1 (what webhook receivers surely speak). */
    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public SendResult send(List<CallRecord> batch) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(format.body(batch)));
        try {
            headers.forEach(request::setHeader);
        } catch (IllegalArgumentException restricted) {
            return new SendResult.Refused("a configured header cannot be sent: " + restricted.getMessage());
        }
        try {
            HttpResponse<Void> answer = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            return SendResult.ofStatus(answer.statusCode(), RetryAfter.parse(null,
                    answer.headers().firstValue("Retry-After").orElse(null), clock.instant()));
        } catch (IOException e) {
            // Refused, reset, timed out, unresolvable: the receiver may be back on a later attempt.
            return new SendResult.Failed(e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()),
                    java.util.Optional.empty());
        }
    }
}
