package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A {@code redis-server} of its own (Debian's package, {@code /usr/bin/redis-server}) on a free
 * loopback port, for tests that stop it: frozen with {@code SIGSTOP} (connections stay open and
 * nothing answers, as an overloaded or paused Redis), thawed with {@code SIGCONT}, or killed.
 * Never the shared Redis of the other tests. Nothing is saved to disk.
 */
public final class RedisServerProcess implements AutoCloseable {
    private static final String BINARY = "/usr/bin/redis-server";

    private final Process process;
    private final int port;
    private final Path dir;

    private RedisServerProcess(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** Starts one and waits until it answers. */
    public static RedisServerProcess start() {
        try {
            Path dir = Files.createTempDirectory("sluice-redis");
            int port = Ports.free();
            Process process = new ProcessBuilder(BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", dir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile())
                    .start();
            RedisServerProcess server = new RedisServerProcess(process, port, dir);
            Eventually.until("redis-server on " + port + " answers", Duration.ofSeconds(10), server::answers);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + BINARY, e);
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Runs one command on it and returns the reply as text ({@link TestRedis#commandAt}). */
    public String command(String... args) {
        return TestRedis.commandAt(new InetSocketAddress("127.0.0.1", port), args);
    }

    /** Stops it answering ({@code SIGSTOP}); its connections stay open. */
    public void freeze() {
        signal("STOP");
    }

    /** Lets it answer again ({@code SIGCONT}), the calls sent meanwhile included. */
    public void thaw() {
        signal("CONT");
    }

    private boolean answers() {
        try {
            return "PONG".equals(command("PING"));
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Thaws it (a frozen process would not die on SIGTERM until then) and stops it. */
    @Override
    public void close() throws Exception {
        thaw();
        process.destroy();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }
}
