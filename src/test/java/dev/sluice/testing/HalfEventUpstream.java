package dev.sluice.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream that answers 200 with an event stream and sends half of an event; then it
 * either drops the connection (a stream cut before its first whole event) or, when
 * {@code stall}, holds it open and sends nothing more. Counts its calls.
 */
public final class HalfEventUpstream implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicInteger calls = new AtomicInteger();
    private final Thread acceptor;
    private final boolean stall;

    public HalfEventUpstream() throws IOException {
        this(false);
    }

    public HalfEventUpstream(boolean stall) throws IOException {
        this.stall = stall;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofVirtual().start(this::serve);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    public int calls() {
        return calls.get();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                RawRequests.read(socket.getInputStream());
                calls.incrementAndGet();
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "c\r\ndata: {\"id\":\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (stall) {
                    while (socket.getInputStream().read() >= 0) {
                        // hold the connection until the other side closes it
                    }
                }
                socket.setSoLinger(true, 0); // a reset, not a clean end
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
    }
}
