package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Loopback ports for tests. */
public final class Ports {
    private Ports() {}

    /** A port nothing listens on: taken from the OS, then released, so connecting is refused. */
    public static int refusing() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
