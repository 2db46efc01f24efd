package dev.sluice.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An upstream whose error never ends: it answers 500 with a JSON error whose message starts
 * {@code "boom"} and then goes on, chunk after chunk, until the caller closes the connection.
 * Counts its calls, the bytes it got out, and the calls whose caller closed the connection.
 */
public final class EndlessErrorUpstream implements AutoCloseable {
    private static final byte[] PADDING = filled(64 * 1024);

    private final HttpServer server;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger closedByCaller = new AtomicInteger();
    private final AtomicLong bytesSent = new AtomicLong();

    public EndlessErrorUpstream() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public int calls() {
        return calls.get();
    }

    /** Calls whose caller closed the connection while the body was still going. */
    public int closedByCaller() {
        return closedByCaller.get();
    }

    public long bytesSent() {
        return bytesSent.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        calls.incrementAndGet();
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(500, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            byte[] start = "{\"error\":{\"type\":\"server_error\",\"message\":\"boom ".getBytes(StandardCharsets.UTF_8);
            out.write(start);
            bytesSent.addAndGet(start.length);
            while (true) {
                out.write(PADDING);
                out.flush();
                bytesSent.addAndGet(PADDING.length);
            }
        } catch (IOException closed) {
            closedByCaller.incrementAndGet();
        } finally {
            exchange.close();
        }
    }

    private static byte[] filled(int length) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
