package dev.sluice.vendors.mock;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A plain TCP connection that speaks just enough HTTP/1.1 to send a request and read the
 * raw bytes back, so a test can see exactly what went over the wire, how it ended, and can
 * hang up at any moment.
 */
public final class RawConnection implements AutoCloseable {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private final Socket socket;
    private final InputStream in;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private boolean ended;

    private RawConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
    }

    public static RawConnection open(MockUpstream mock) {
        try {
            Socket socket = new Socket("127.0.0.1", mock.port());
            socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
            return new RawConnection(socket);
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    public void post(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + bytes.length + "\r\n\r\n";
        try {
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    /** Reads until what was received contains {@code marker}; returns everything received so far. */
    String readUntil(String marker) {
        while (!text().contains(marker)) {
            if (!readSome()) {
                throw new AssertionError("connection ended before '" + marker + "'; received: " + text());
            }
        }
        return text();
    }

    /** Reads until the mock closes or resets the connection; returns everything received. */
    public String readToEnd() {
        while (readSome()) {
            // keep reading
        }
        return text();
    }

    /** Whether the peer closed or reset the connection (as seen by the last read). */
    public boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    /** Reads what is available; false once the connection has ended. */
    private boolean readSome() {
        byte[] chunk = new byte[4096];
        try {
            int n = in.read(chunk);
            if (n < 0) {
                ended = true;
                return false;
            }
            received.write(chunk, 0, n);
            return true;
        } catch (SocketTimeoutException slow) {
            throw new AssertionError("nothing arrived for " + READ_TIMEOUT + "; received: " + text(), slow);
        } catch (SocketException reset) {
            ended = true;
            return false;
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private String text() {
        return received.toString(StandardCharsets.UTF_8);
    }
}
