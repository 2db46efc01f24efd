package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a free loopback port to one target, for tests of a server that goes
 * away and comes back: {@link #stop()} closes the listener and cuts every open connection,
 * as a crashed server or a broken network would, so new connections are refused and open
 * ones fail mid-use; {@link #resume()} listens again on the same port.
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.to(TestDatabases.postgresAddress())) {
 *     Database database = store.openThrough(proxy.port(), options);
 *     proxy.stop();     // the database is gone
 *     ...
 *     proxy.resume();   // and back
 * }
 * }</pre>
 */
public final class TcpProxy implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MS = 2_000;

    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile Duration lag = Duration.ZERO;
    /** Null while stopped. Guarded by this, as is the acceptor. */
    private ServerSocket listener;
    private Thread acceptor;

    private TcpProxy(InetSocketAddress target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
        this.port = listener.getLocalPort();
        this.acceptor = acceptOn(listener);
    }

    /** A proxy listening now, on a port the system picks. */
    public static TcpProxy to(InetSocketAddress target) {
        return new TcpProxy(target, listen(0));
    }

    public int port() {
        return port;
    }

    /** Connections accepted since the proxy started, across stops. */
    public int accepted() {
        return accepted.get();
    }

    /**
     * Stops listening and cuts every connection, both ways; when this returns, a new
     * connection to the port is refused. Idempotent.
     */
    public void stop() {
        ServerSocket closing;
        Thread accepting;
        synchronized (this) {
            if (listener == null) {
                return;
            }
            closing = listener;
            accepting = acceptor;
            listener = null;
        }
        closeQuietly(closing);
        // The system keeps the port listening until the thread blocked in accept() has left
        // it: wait for that, and for the connection it may have been setting up.
        try {
            if (!accepting.join(Duration.ofSeconds(10))) {
                throw new IllegalStateException("the proxy on port " + port + " did not stop accepting");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted stopping the proxy on port " + port, e);
        }
        for (Socket socket : connections) {
            closeQuietly(socket);
        }
        connections.clear();
    }

    /**
     * Holds every block of bytes this long before passing it on, both ways, on open
     * connections and new ones: a server that is there but slow. {@link Duration#ZERO} ends it.
     */
    public void lag(Duration delay) {
        lag = delay;
    }

    /** Listens again, on the same port. Idempotent. */
    public synchronized void resume() {
        if (listener != null) {
            return;
        }
        listener = listen(port);
        acceptor = acceptOn(listener);
    }

    @Override
    public void close() {
        stop();
    }

    private static ServerSocket listen(int port) {
        try {
            ServerSocket socket = new ServerSocket();
            // The port was just ours: let it be taken again while old connections linger in TIME_WAIT.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException("listen on loopback port " + port, e);
        }
    }

    private Thread acceptOn(ServerSocket socket) {
        return Thread.ofVirtual().name("tcp-proxy-accept-" + port).start(() -> {
            while (true) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException e) {
                    return;  // stopped
                }
                accepted.incrementAndGet();
                forward(socket, client);
            }
        });
    }

    private void forward(ServerSocket acceptedOn, Socket client) {
        Socket server = new Socket();
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(target, CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        synchronized (this) {
            if (listener != acceptedOn) {
                // Stopped while this connection was being made: cut it too.
                closeQuietly(client);
                closeQuietly(server);
                return;
            }
            connections.add(client);
            connections.add(server);
        }
        Thread.ofVirtual().name("tcp-proxy-up-" + port).start(() -> pump(client, server));
        Thread.ofVirtual().name("tcp-proxy-down-" + port).start(() -> pump(server, client));
    }

    /** Copies one direction until either side ends, then closes both. */
    private void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            byte[] block = new byte[16 * 1024];
            for (int n = in.read(block); n >= 0; n = in.read(block)) {
                Duration held = lag;
                if (held.isPositive()) {
                    // The proxy holds each block on purpose: a slow network is what lag() is for.
                    Thread.sleep(held);
                }
                out.write(block, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // cut by stop(), or by either end
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            connections.remove(from);
            connections.remove(to);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // already closed, or the peer is gone: either way it is closed now
        }
    }
}
