package dev.sluice.vendors.bedrock.provider;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A Bedrock stand-in for tests that need what the mock does not give: the exact request line
 * and headers a call arrived with (to check its signature), and answers written byte by byte
 * (a corrupt event-stream frame, an error quoting the caller's key).
 */
final class RecordingBedrock implements AutoCloseable {
    /** One request as it arrived. */
    record Received(String method, String uri, Map<String, String> headers, byte[] body) {}

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    RecordingBedrock(Consumer<HttpServerResponse> answer) throws Exception {
        server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    Map<String, String> headers = new java.util.LinkedHashMap<>();
                    request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue()));
                    received.add(new Received(request.method().name(), request.uri(), headers, body.getBytes()));
                    answer.accept(request.response());
                }))
                .listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    List<Received> received() {
        return received;
    }

    /** Writes {@code frames} as an event stream, one write each, then ends it. */
    static void eventStream(HttpServerResponse response, List<Buffer> frames) {
        response.setChunked(true).putHeader("Content-Type", "application/vnd.amazon.eventstream");
        frames.forEach(response::write);
        response.end();
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
