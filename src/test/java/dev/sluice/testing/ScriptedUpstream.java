package dev.sluice.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP upstream on a loopback port that answers the scripted replies in order, then
 * a chat completion saying {@code [name] ok} for every call after them. Counts its calls.
 */
public final class ScriptedUpstream implements AutoCloseable {
    private final HttpServer server;
    private final String name;
    private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger calls = new AtomicInteger();

    /** One scripted answer; {@code retryAfter} null sends no such header. */
    public record Reply(int status, String body, String retryAfter, String contentType) {
        public Reply(int status, String body, String retryAfter) {
            this(status, body, retryAfter, "application/json");
        }

        /** A 200 event stream that ends at once, without a single event. */
        public static Reply emptyStream() {
            return new Reply(200, "", null, "text/event-stream");
        }

        public static Reply status(int status) {
            return new Reply(status, "{\"error\":{\"message\":\"scripted " + status + "\",\"type\":\"server_error\",\"param\":null,\"code\":null}}", null);
        }
    }

    private ScriptedUpstream(String name) {
        this.name = name;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    public static ScriptedUpstream start(String name, Reply... replies) {
        ScriptedUpstream upstream = new ScriptedUpstream(name);
        upstream.script.addAll(java.util.List.of(replies));
        return upstream;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public int calls() {
        return calls.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        calls.incrementAndGet();
        Reply reply = script.poll();
        if (reply == null) {
            reply = new Reply(200, """
                    {"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"[%s] ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}"""
                    .formatted(name), null);
        }
        byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", reply.contentType());
        if (reply.retryAfter() != null) {
            exchange.getResponseHeaders().add("Retry-After", reply.retryAfter());
        }
        exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
