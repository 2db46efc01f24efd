package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/** Loopback ports for tests. */
public final class Ports {
    /** Held for the life of the test JVM, so their ports are never handed out again. */
    private static final List<Socket> HELD = new ArrayList<>();

    private Ports() {}

    /**
     * A port free now, for a server a test is about to start on it: taken from the OS and
     * released. Not for a port meant to refuse connections ({@link #refusing}).
     */
    public static int free() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A port nothing listens on, so connecting is refused. It stays bound (without listening)
     * for the life of the test JVM: a port taken from the OS and released could be handed to
     * the next server a test starts, which would then answer where a refusal was meant.
     */
    public static synchronized int refusing() {
        Socket socket = new Socket();
        try {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HELD.add(socket);
        return socket.getLocalPort();
    }
}
