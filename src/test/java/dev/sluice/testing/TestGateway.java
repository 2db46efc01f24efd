package dev.sluice.testing;

import dev.sluice.boot.GatewayOptions;
import dev.sluice.boot.GatewayServer;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.SluiceConfig;
import dev.sluice.router.RouterEvents;
import dev.sluice.time.Backoff;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * A real gateway on a free loopback port, started from YAML the way a user's file is, with
 * a plain JDK HTTP client to call it. Close it to stop it.
 */
public final class TestGateway implements AutoCloseable {
    private final GatewayServer server;
    private final Path storeFolder;
    /** The master key of the gateway's config, sent to {@code /metrics}, whose named series only it sees. */
    private final Optional<String> masterKey;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    /** Short waits between repeats, so tests of retries do not sleep for the production backoff. */
    /** Each Redis call's budget: roomier than production's 50 ms, so a busy test machine does not take Redis for down. */
    static final java.time.Duration REDIS_CALL_BUDGET = java.time.Duration.ofMillis(500);
    public static final Backoff TEST_BACKOFF = new Backoff(Duration.ofMillis(5), Duration.ofMillis(40), Duration.ofSeconds(5));

    private TestGateway(GatewayServer server, Path storeFolder, Optional<String> masterKey) {
        this.server = server;
        this.storeFolder = storeFolder;
        this.masterKey = masterKey;
    }

    /**
     * A gateway serving one model group, {@code chat}, from the OpenAI-compatible upstream at
     * {@code upstreamBaseUrl}, with {@code general} (lines indented by two spaces) as its
     * {@code general_settings}.
     */
    public static TestGateway chat(String upstreamBaseUrl, String general) {
        return start("""
                model_list:
                  - model_name: chat
                    litellm_params: {model: openai/m, api_base: %s}
                general_settings:
                  %s
                """.formatted(upstreamBaseUrl, general.strip().replace("\n", "\n  ")));
    }

    public static TestGateway start(String yaml) {
        return start(yaml, Map.of());
    }

    public static TestGateway start(String yaml, Map<String, String> env) {
        return start(yaml, env, RouterEvents.NONE);
    }

    /**
     * A gateway that tells {@code events} of every routing decision, and waits only a few
     * milliseconds before repeating a deployment in place (Retry-After is still honoured).
     */
    public static TestGateway start(String yaml, Map<String, String> env, RouterEvents events) {
        return start(yaml, env, events, Clock.systemUTC());
    }

    /** A gateway whose wall-clock time (bench ends, budget periods, key expiry, rate-limit minutes) is {@code clock}'s. */
    public static TestGateway start(String yaml, Map<String, String> env, RouterEvents events, Clock clock) {
        return start(yaml, env, events, new TimeSource(clock, System::nanoTime));
    }

    /**
     * A gateway that reads all its time from {@code time}: a {@link FakeClock} or a
     * {@link MovableTicker} there lets a test reach a bench end, a budget reset or a cache
     * entry's end of life by moving time instead of sleeping.
     */
    public static TestGateway start(String yaml, Map<String, String> env, RouterEvents events, TimeSource time) {
        return start(yaml, env, events, time, new Random(7));
    }

    /** A gateway whose shuffles and weighted picks come from {@code random}, so a test can assert exact picks. */
    public static TestGateway start(String yaml, Map<String, String> env, RouterEvents events, TimeSource time, Random random) {
        return start(yaml, env, events, time, random, options -> options);
    }

    /** A gateway started with {@code tweak} applied to its options last: a listener of its calls, say. */
    public static TestGateway start(String yaml, Map<String, String> env, RouterEvents events, TimeSource time, Random random,
            UnaryOperator<GatewayOptions> tweak) {
        try {
            SluiceConfig config = ConfigLoader.parse(yaml, env, Providers.knownPrefixes());
            Path storeFolder = null;
            GeneralSettings general = config.general();
            if (general.usesStore() && general.store().storePath().equals(GeneralSettings.DEFAULT_STORE_PATH)) {
                // Each test gateway keeps its embedded store in its own folder, removed on close.
                storeFolder = Files.createTempDirectory("sluice-gateway-store-");
                config = config.withGeneral(general.withStorePath(storeFolder.resolve("sluice")));
            }
            return new TestGateway(GatewayServer.start(tweak.apply(GatewayOptions.of(config, "127.0.0.1", 0, env)
                    .withRandom(random).withTime(time).withEventLoops(2)
                    .withEvents(events).withBackoff(TEST_BACKOFF)
                    .withRedisCallBudget(REDIS_CALL_BUDGET))), storeFolder,
                    general.masterKey().map(dev.sluice.config.Secret::value));
        } catch (Exception e) {
            throw new IllegalStateException("test gateway did not start: " + e.getMessage(), e);
        }
    }

    public int port() {
        return server.port();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** POSTs a JSON body, with the given extra header name/value pairs. */
    public HttpResponse<String> post(String path, String json, String... headers) {
        return send(JsonPosts.of(uri(path), json, headers));
    }

    public HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return send(request.build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * POSTs a chat completion over a raw socket, as {@code httpVersion} ({@code HTTP/1.1} or
     * {@code HTTP/1.0}) with {@code Connection: close}, and returns every byte the gateway wrote
     * until it closed: head, chunk framing and trailers included, which an HTTP client hides.
     */
    public String rawChat(String httpVersion, String key, String body) throws IOException {
        try (Socket socket = rawChatSent(httpVersion, key, body)) {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** POSTs a chat completion over a raw socket and hangs up at once, as a caller that left. */
    public void rawChatThenHangUp(String key, String body) throws IOException {
        rawChatSent("HTTP/1.1", key, body).close();
    }

    private Socket rawChatSent(String httpVersion, String key, String body) throws IOException {
        Socket socket = new Socket("127.0.0.1", port());
        try {
            socket.setSoTimeout(10_000);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/chat/completions " + httpVersion + "\r\nHost: x\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    public HttpClient client() {
        return http;
    }

    /**
     * One sample of {@code GET /metrics}, written as the format writes it
     * ({@code sluice_deployment_benched{deployment="d",model_group="g"}}); 0 when absent.
     */
    public double metric(String sample) {
        String[] key = masterKey.map(k -> new String[] {"Authorization", "Bearer " + k}).orElse(new String[0]);
        return MetricSamples.parse(get("/metrics", key).body()).getOrDefault(sample, 0.0);
    }

    /** Waits until {@link #metric} reads {@code value}: for state that reaches this gateway from elsewhere. */
    public void awaitMetric(String what, String sample, double value) {
        Eventually.until(what + " (" + sample + " = " + value + ")", Duration.ofSeconds(5), () -> metric(sample) == value);
    }

    /** The first step of {@link #drain}: readiness and new calls answer 503 from now on. */
    public void refuseNewCalls() {
        server.refuseNewCalls();
    }

    /** Stops the gateway as {@code SIGTERM} does, giving calls in flight {@code deadline} to finish. */
    public void drain(Duration deadline) {
        server.drain(deadline);
    }

    @Override
    public void close() {
        server.close();
        if (storeFolder != null) {
            TestDatabase.deleteTree(storeFolder);
        }
    }
}
