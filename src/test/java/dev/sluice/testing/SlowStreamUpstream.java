package dev.sluice.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream whose streams stay open: it sends the head and a first event at once, holds
 * the stream for {@code hold}, then sends a last event and {@code [DONE]}. Counts its calls.
 * Each connection is served on its own thread, so several streams can be open together.
 */
public final class SlowStreamUpstream implements AutoCloseable {
    private final ServerSocket server;
    private final Duration hold;
    private final String name;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();

    public SlowStreamUpstream(String name, Duration hold) throws IOException {
        this.name = name;
        this.hold = hold;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    public int calls() {
        return calls.get();
    }

    /** Streams being held open right now. */
    public int open() {
        return open.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            RawRequests.read(socket.getInputStream());
            calls.incrementAndGet();
            open.incrementAndGet();
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, event("[" + name + "] first"));
            Thread.sleep(hold.toMillis());
            chunk(out, event(" last") + "data: [DONE]\n\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException | InterruptedException e) {
            // the test is over or the gateway hung up
        } finally {
            open.decrementAndGet();
        }
    }

    private static String event(String content) {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"" + content + "\"},\"finish_reason\":null}]}\n\n";
    }

    private static void chunk(OutputStream out, String data) throws IOException {
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
