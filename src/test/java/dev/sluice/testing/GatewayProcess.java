package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The built jar running as a gateway in a process of its own, as a user runs a replica:
 * {@code java -jar target/sluice.jar --config FILE --port 0 --host 127.0.0.1}, started in a
 * folder of its own (where its config, its output and its spend journal go) and ready once
 * {@code /health/readiness} answers. The port is the one the gateway names in its
 * {@code server.started} line: a port chosen here and handed over could be taken by another
 * socket before the gateway binds it. {@link #close()} stops it with SIGTERM, then SIGKILL if
 * it lingers, and prints its output to the test's output.
 *
 * <pre>{@code
 * try (GatewayProcess a = GatewayProcess.start("a", yaml, folder)) {
 *     HttpResponse<String> answer = a.post("/v1/chat/completions", Chat.body("g", "hi"));
 * }
 * }</pre>
 */
public final class GatewayProcess implements AutoCloseable {
    /** The jar failsafe hands over in {@code sluice.jar}; {@code target/sluice.jar} when run from the project. */
    public static final Path JAR = Path.of(System.getProperty("sluice.jar", "target/sluice.jar")).toAbsolutePath();
    private static final String JAVA = ProcessHandle.current().info().command().orElse("java");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private static final Pattern STARTED = Pattern.compile("server\\.started address=127\\.0\\.0\\.1:(\\d+)");

    private final String name;
    /** 0 until the gateway has said where it listens. */
    private volatile int port;
    private final Process process;
    private final Path output;
    private boolean closed;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private GatewayProcess(String name, Process process, Path output) {
        this.name = name;
        this.process = process;
        this.output = output;
    }

    /** One gateway on {@code yaml}, in the folder {@code parent/name}; returns once it is ready. */
    public static GatewayProcess start(String name, String yaml, Path parent) {
        return startAll(yaml, parent, name).getFirst();
    }

    /** As {@link #start(String, String, Path)}, with {@code env} added to the process's environment. */
    public static GatewayProcess start(String name, String yaml, Path parent, Map<String, String> env) {
        GatewayProcess gateway = launch(name, yaml, parent, env);
        try {
            gateway.awaitReady();
            return gateway;
        } catch (RuntimeException | Error e) {
            gateway.close();
            throw e;
        }
    }

    /**
     * One gateway per name, all on {@code yaml}, launched together and returned once every one
     * is ready; if any fails to start, those launched are stopped.
     */
    public static List<GatewayProcess> startAll(String yaml, Path parent, String... names) {
        List<GatewayProcess> launched = new ArrayList<>();
        try {
            for (String name : names) {
                launched.add(launch(name, yaml, parent, Map.of()));
            }
            for (GatewayProcess gateway : launched) {
                gateway.awaitReady();
            }
            return launched;
        } catch (RuntimeException | Error e) {
            launched.forEach(GatewayProcess::close);
            throw e;
        }
    }

    private static GatewayProcess launch(String name, String yaml, Path parent, Map<String, String> env) {
        try {
            Path folder = Files.createDirectories(parent.resolve(name));
            Path config = Files.writeString(folder.resolve("config.yaml"), yaml);
            Path output = folder.resolve("output.log");
            ProcessBuilder builder = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "--config", config.toString(),
                    "--port", "0", "--host", "127.0.0.1")
                    .directory(folder.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            return new GatewayProcess(name, process, output);
        } catch (IOException e) {
            throw new UncheckedIOException("gateway " + name + " did not launch", e);
        }
    }

    private void awaitReady() {
        try {
            Eventually.until("gateway " + name + " ready", START_TIMEOUT, this::ready);
        } catch (AssertionError notReady) {
            throw new IllegalStateException(notReady.getMessage() + ":\n" + output(), notReady);
        }
    }

    /** True once the process has said its port and answers readiness; fails at once if it ended. */
    private boolean ready() {
        if (!process.isAlive()) {
            throw new IllegalStateException("gateway " + name + " ended with exit code " + process.exitValue()
                    + " before it was ready:\n" + output());
        }
        if (port == 0) {
            Matcher started = STARTED.matcher(output());
            if (!started.find()) {
                return false;
            }
            port = Integer.parseInt(started.group(1));
        }
        try {
            http.send(HttpRequest.newBuilder(uri("/health/readiness")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return true;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for gateway " + name, e);
        }
    }

    public String name() {
        return name;
    }

    /**
     * The process that serves: the one launched (which replaced itself with the gateway's JVM),
     * or the JVM it started as a child when its Java could not replace itself (older than 22).
     */
    public ProcessHandle serving() {
        return process.descendants().reduce((first, second) -> second).orElse(process.toHandle());
    }

    /** The process launched with {@code java -jar}: the serving one too when the launcher replaced itself with it. */
    public ProcessHandle launched() {
        return process.toHandle();
    }

    /**
     * Runs a full collection in the serving JVM, through {@code jcmd} from that JVM's own
     * installation, and returns once it is over: what its heap holds afterwards is what it
     * keeps alive.
     */
    public void collectGarbage() {
        jcmd("GC.run");
    }

    /** The serving JVM's flags in effect, as {@code jcmd VM.flags} lists them ({@code -XX:MaxHeapSize=...}). */
    public String vmFlags() {
        return jcmd("VM.flags");
    }

    private String jcmd(String command) {
        ProcessHandle serving = serving();
        Path java = Path.of(serving.info().command().orElseThrow(() -> new IllegalStateException(name + ": no command")));
        Path jcmd = java.resolveSibling("jcmd");
        try {
            Process run = new ProcessBuilder(jcmd.toString(), Long.toString(serving.pid()), command)
                    .redirectErrorStream(true).start();
            String said = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!run.waitFor(30, TimeUnit.SECONDS) || run.exitValue() != 0) {
                throw new IllegalStateException(jcmd + " " + command + " on " + this + " failed: " + said);
            }
            return said;
        } catch (IOException e) {
            throw new UncheckedIOException(jcmd + " did not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return port;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** POSTs a JSON body, with the given extra header name/value pairs. */
    public HttpResponse<String> post(String path, String json, String... headers) {
        return send(JsonPosts.of(uri(path), json, headers));
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20)).GET().build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("gateway " + name + ": " + request.method() + " " + request.uri().getPath(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One sample of {@code GET /metrics}, written as the format writes it; 0 when absent. */
    public double metric(String sample) {
        return MetricSamples.parse(get("/metrics").body()).getOrDefault(sample, 0.0);
    }

    /** Waits until {@link #metric} reads {@code value}: for state that reaches this replica from elsewhere. */
    public void awaitMetric(String what, String sample, double value) {
        Eventually.until(what + " (" + sample + " = " + value + ")", Duration.ofSeconds(10), () -> metric(sample) == value);
    }

    public HttpClient client() {
        return http;
    }

    /** Everything the process has written so far, stdout and stderr together. */
    public String output() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output unreadable: " + e.getMessage() + ")";
        }
    }

    /** Sends the process {@code SIGTERM}, as an orchestrator stopping a replica does, and returns at once. */
    public void terminate() {
        process.destroy();
    }

    /**
     * Kills the serving JVM outright ({@code kill -9}: no shutdown hook runs, nothing is
     * flushed) and returns once it is gone.
     */
    public void kill() throws Exception {
        ProcessHandle serving = serving();
        serving.destroyForcibly();
        serving.onExit().get(30, TimeUnit.SECONDS);
    }

    /** Whether the process has ended within {@code timeout}. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The exit code of the process launched, once it has ended. */
    public int exitCode() {
        return process.exitValue();
    }

    /** Stops the process (and any it started) and prints its output, for the test report. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.forEach(ProcessHandle::destroyForcibly);
        System.out.println("---- gateway " + name + " (port " + port + ") output ----\n" + output());
    }

    @Override
    public String toString() {
        return "gateway " + name + " on port " + port;
    }
}
