package dev.sluice.ops.callbacks;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A callback's receiver on loopback, port 0: it answers every post 200 and records what
 * arrived, its headers and its parsed JSON body, for a test to read.
 */
final class Receiver implements AutoCloseable {
    /** One post as it arrived. */
    record Post(String path, String authorization, String contentType, String custom, JsonNode body) {}

    private final HttpServer server;
    private final List<Post> posts = new CopyOnWriteArrayList<>();

    private Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            try {
                posts.add(new Post(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"),
                        exchange.getRequestHeaders().getFirst("Content-Type"), exchange.getRequestHeaders().getFirst("X-Team"),
                        Json.parse(body)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    static Receiver start() throws IOException {
        return new Receiver();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Post> posts() {
        return posts;
    }

    /** Every element of every post whose body is a JSON array (the generic API logger's batches). */
    List<JsonNode> payloads() {
        return posts.stream().filter(post -> post.body().isArray()).flatMap(post -> {
            List<JsonNode> items = new java.util.ArrayList<>();
            post.body().forEach(items::add);
            return items.stream();
        }).toList();
    }

    /** The payload with {@code id}, once it has arrived. */
    java.util.Optional<JsonNode> payload(String id) {
        return payloads().stream().filter(p -> p.path("id").asText().equals(id)).findFirst();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
