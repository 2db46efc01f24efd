package dev.sluice.ops.callbacks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.testing.FakeClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A post to a real receiver on loopback: what it carries, and how each kind of answer, or none, is read. */
class HttpBatchSenderTest {
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private HttpServer receiver;

    private URI start(String retryAfter) throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/logs", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization") + " | "
                    + exchange.getRequestHeaders().getFirst("Content-Type"));
            if (retryAfter != null) {
                exchange.getResponseHeaders().add("Retry-After", retryAfter);
            }
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        receiver.start();
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/logs");
    }

    @AfterEach
    void stop() {
        if (receiver != null) {
            receiver.stop(0);
        }
    }

    private static HttpBatchSender sender(URI endpoint) {
        return new HttpBatchSender(HttpBatchSender.client(), endpoint, Map.of("Authorization", "Bearer receiver-token"),
                batch -> ("[" + batch.size() + "]").getBytes(StandardCharsets.UTF_8), new FakeClock());
    }

    @Test
    void aTakenPostCarriesTheBatchAsJsonWithTheConfiguredHeaders() throws Exception {
        HttpBatchSender sender = sender(start(null));

        assertThat(sender.send(List.of(Records.served("a"), Records.served("b")))).isInstanceOf(SendResult.Delivered.class);
        assertThat(bodies).containsExactly("[2]");
        assertThat(authorizations).containsExactly("Bearer receiver-token | application/json");
    }

    @Test
    void aBusyReceiversRetryAfterIsRead() throws Exception {
        status.set(429);
        HttpBatchSender sender = sender(start("2"));

        assertThat(sender.send(List.of(Records.served("a")))).isEqualTo(new SendResult.Failed("answered 429",
                Optional.of(Duration.ofSeconds(2))));
    }

    @Test
    void aServerErrorIsRetriedAndARequestErrorIsNot() throws Exception {
        URI endpoint = start(null);
        status.set(502);
        assertThat(sender(endpoint).send(List.of(Records.served("a")))).isInstanceOf(SendResult.Failed.class);
        status.set(401);
        assertThat(sender(endpoint).send(List.of(Records.served("a")))).isEqualTo(new SendResult.Refused("answered 401"));
    }

    @Test
    void aRefusedConnectionIsRetried() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }

        SendResult result = sender(URI.create("http://127.0.0.1:" + closed + "/logs")).send(List.of(Records.served("a")));

        assertThat(result).isInstanceOfSatisfying(SendResult.Failed.class,
                failed -> assertThat(failed.reason()).contains("ConnectException"));
    }
}
