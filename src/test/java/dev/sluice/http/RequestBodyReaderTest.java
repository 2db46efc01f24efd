package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Eventually;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A body read holds its bytes against the budget until the call is done with them, and keeps no copy of its own. */
class RequestBodyReaderTest {
    private static final int SIZE = 1024 * 1024;
    private final Vertx vertx = Vertx.vertx();
    private final BodyBudget budget = new BodyBudget(8L * SIZE);
    private final Promise<Void> doneWithBody = Promise.promise();
    private final AtomicReference<WeakReference<Buffer>> read = new AtomicReference<>();
    private final AtomicReference<HttpServerRequest> open = new AtomicReference<>();

    @AfterEach
    void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    private int server() throws Exception {
        HttpServer server = vertx.createHttpServer();
        server.requestHandler(request -> {
            RequestBodyReader bodies = new RequestBodyReader(vertx, new BodyLimits(4L * SIZE, budget,
                    dev.sluice.wire.JsonLimits.DEFAULTS, java.time.Duration.ofSeconds(15)), System::nanoTime);
            open.set(request);
            bodies.read(request, doneWithBody.future()).onSuccess(body -> read.set(new WeakReference<>(body)));
        });
        return server.listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS).actualPort();
    }

    @Test
    void theBytesAreHeldUntilTheCallIsDoneAndNotKeptByTheReader() throws Exception {
        int port = server();
        CompletableFuture<HttpResponse<String>> answer = HttpClient.newHttpClient().sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).timeout(Duration.ofSeconds(20))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[SIZE])).build(),
                HttpResponse.BodyHandlers.ofString());

        Eventually.until("the body was read", Duration.ofSeconds(10), () -> read.get() != null);
        assertThat(budget.held()).isBetween((long) SIZE, SIZE + SIZE / 50L);

        // The request is still open (unanswered), and its handlers still set: once the caller
        // drops the body, nothing of the reader's may keep it.
        Eventually.until("the body is collectable while its request is open", Duration.ofSeconds(10), () -> {
            System.gc();
            return read.get().get() == null;
        });
        assertThat(budget.held()).isBetween((long) SIZE, SIZE + SIZE / 50L);

        doneWithBody.complete();
        assertThat(budget.held()).isZero();
        open.get().response().end();
        assertThat(answer.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
}
