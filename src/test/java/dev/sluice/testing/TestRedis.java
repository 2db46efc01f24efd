package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The Redis the tests share: the local one at 127.0.0.1:6379 when it answers (on this
 * project's machines and in CI), else a real one started once per test JVM from the
 * binaries of {@code embedded-redis}, on a free port, and stopped when the JVM exits. Each
 * test takes its own key prefix from {@link #newPrefix} and removes its keys with
 * {@link #deleteKeys} when done, so tests never see each other's state.
 */
public final class TestRedis {
    public static final String HOST = "127.0.0.1";
    private static final int LOCAL_PORT = 6379;
    /** {@code -Dsluice.test.redis=local|embedded|auto} (default auto: local when it answers). */
    public static final int PORT = switch (System.getProperty("sluice.test.redis", "auto")) {
        case "local" -> LOCAL_PORT;
        case "embedded" -> startEmbedded();
        default -> localAnswers() ? LOCAL_PORT : startEmbedded();
    };

    /** {@code router_settings.redis_socket_timeout} of the gateways {@link #routerSettings} configures. */
    private static final String CALL_BUDGET_SECONDS = "2";

    private static final String DELETE_SCRIPT =
            "local keys = redis.call('KEYS', ARGV[1]) for _, k in ipairs(keys) do redis.call('DEL', k) end return #keys";

    private TestRedis() {}

    private static boolean localAnswers() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, LOCAL_PORT), 500);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            return readLine(socket.getInputStream()).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private static int startEmbedded() {
        try {
            int port;
            try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
                port = free.getLocalPort();
            }
            redis.embedded.RedisServer server = redis.embedded.RedisServer.newRedisServer()
                    .port(port)
                    .bind(HOST)
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.stop();
                } catch (IOException ignored) {
                    // The JVM is going; the server process goes with its pipes.
                }
            }));
            return port;
        } catch (IOException e) {
            throw new UncheckedIOException("no Redis at " + HOST + ":" + LOCAL_PORT + " and the embedded one did not start", e);
        }
    }

    /**
     * The lines under {@code router_settings:} that point a gateway at the Redis listening on
     * {@code port} (this one's, or a proxy's in front of it), its keys under {@code prefix}.
     *
     * <p>Each Redis call gets {@link #CALL_BUDGET_SECONDS} rather than production's 50 ms: on a
     * busy machine a replica would otherwise take a slow answer for an outage and decide on its
     * own counts, and a limit shared between replicas would not hold. A cut Redis is still
     * noticed at once, from the closed connection.
     */
    public static String routerSettings(int port, String prefix) {
        return """
                  redis_host: %s
                  redis_port: %d
                  redis_key_prefix: "%s"
                  redis_socket_timeout: %s
                """.formatted(HOST, port, prefix, CALL_BUDGET_SECONDS);
    }

    public static InetSocketAddress address() {
        return new InetSocketAddress(HOST, PORT);
    }

    public static String url() {
        return "redis://" + HOST + ":" + PORT;
    }

    /** A prefix no other test uses: {@code sluice-test:<random>:}. */
    public static String newPrefix() {
        return "sluice-test:" + UUID.randomUUID() + ":";
    }

    /** Deletes every key that starts with {@code prefix}; returns how many there were. */
    public static long deleteKeys(String prefix) {
        return Long.parseLong(command("EVAL", DELETE_SCRIPT, "0", prefix + "*"));
    }

    /** How many keys match {@code pattern} (e.g. {@code prefix + "pins:*"}). */
    public static long countKeys(String pattern) {
        return Long.parseLong(command("EVAL", "return #redis.call('KEYS', ARGV[1])", "0", pattern));
    }

    /** Runs one command and returns its reply as text (an integer, a simple or a bulk string). */
    public static String command(String... args) {
        return commandAt(address(), args);
    }

    /** {@link #command} against the Redis at {@code at}. */
    public static String commandAt(InetSocketAddress at, String... args) {
        try (Socket socket = new Socket()) {
            socket.connect(at, 2_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                request.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String line = readLine(in);
            return switch (line.charAt(0)) {
                case ':', '+' -> line.substring(1);
                case '$' -> {
                    int length = Integer.parseInt(line.substring(1));
                    yield length < 0 ? null : new String(in.readNBytes(length + 2), StandardCharsets.UTF_8).substring(0, length);
                }
                default -> throw new IllegalStateException("Redis answered " + line);
            };
        } catch (IOException e) {
            throw new UncheckedIOException("Redis at " + at + " did not answer", e);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }
}
