package dev.sluice.vendors.mock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.time.TimeSource;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A real OpenAI-compatible HTTP server that fails on purpose, for fault drills, the
 * gateway's demo, its tests and its benchmark. It serves {@code /v1/chat/completions}
 * (also without {@code /v1}), {@code /v1/completions}, {@code /v1/embeddings},
 * {@code /v1/responses} (OpenAI's Responses API, whole and streamed, with
 * {@code previous_response_id}), {@code /v1/models}, Azure's {@code /openai/deployments/{deployment}/...} paths and
 * {@code GET /} (its name and mode); model calls behave as the current {@link MockMode} says.
 *
 * <p>Tests put the gateway in front of several mocks and assert on what each one saw:
 * {@link #requests()}, {@link #receivedBodies()}, {@link #receivedHeaders()} and
 * {@link #cancelledStreams()}.
 *
 * <p>The server speaks HTTP/1.1 only (no h2c upgrade), so a {@code cut} really drops a TCP
 * connection and {@link #openConnections()} counts sockets.
 */
public final class MockUpstream implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final MockOptions options;
    private final Vertx vertx;
    private final boolean ownsVertx;
    private final HttpServer server;
    private final MockLedger ledger;
    private final MockModeSchedule schedule;
    private final AtomicBoolean closed = new AtomicBoolean();

    private MockUpstream(MockOptions options, Vertx vertx, boolean ownsVertx, HttpServer server,
            MockLedger ledger, MockModeSchedule schedule) {
        this.options = options;
        this.vertx = vertx;
        this.ownsVertx = ownsVertx;
        this.server = server;
        this.ledger = ledger;
        this.schedule = schedule;
    }

    /**
     * Starts a mock on its own single-event-loop Vert.x, closed with the mock. Blocks until
     * it listens.
     *
     * @throws IllegalStateException if it cannot listen, e.g. because the port is taken
     */
    public static MockUpstream start(MockOptions options) {
        Vertx own = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        try {
            return await(listen(own, true, options), START_TIMEOUT, "starting mock '" + options.name() + "'");
        } catch (RuntimeException failed) {
            own.close();
            throw failed;
        }
    }

    /**
     * Starts a mock on a Vert.x the caller owns and keeps open. Blocks until it listens, so
     * it must not be called on an event loop; use {@link #startAsync} there.
     *
     * @throws IllegalStateException if it cannot listen, e.g. because the port is taken
     */
    public static MockUpstream start(Vertx vertx, MockOptions options) {
        return await(startAsync(vertx, options), START_TIMEOUT, "starting mock '" + options.name() + "'");
    }

    /** Starts a mock on a Vert.x the caller owns; the future completes once it listens. */
    public static Future<MockUpstream> startAsync(Vertx vertx, MockOptions options) {
        return listen(vertx, false, options);
    }

    private static Future<MockUpstream> listen(Vertx vertx, boolean ownsVertx, MockOptions options) {
        MockLedger ledger = new MockLedger();
        MockModeSchedule schedule = new MockModeSchedule(options.mode(), options.times());
        HttpServer server = vertx.createHttpServer(serverOptions(options))
                .connectionHandler(ledger::watch)
                .requestHandler(MockApi.handler(new MockApi.Parts(vertx, options, schedule, ledger, TimeSource.system().clock())));
        return server.listen()
                .<MockUpstream>map(listening -> new MockUpstream(options, vertx, ownsVertx, server, ledger, schedule))
                .recover(cause -> Future.failedFuture(new IllegalStateException(
                        "mock '" + options.name() + "' could not listen on " + options.host() + ":"
                                + options.port() + ": " + cause.getMessage(), cause)));
    }

    private static HttpServerOptions serverOptions(MockOptions options) {
        return new HttpServerOptions()
                .setHost(options.host())
                .setPort(options.port())
                .setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false)
                .setHandle100ContinueAutomatically(true);
    }

    /** The port it listens on; the chosen one when the options said 0. */
    public int port() {
        return server.actualPort();
    }

    /** The OpenAI base URL to configure as {@code api_base}, e.g. {@code http://127.0.0.1:4100/v1}. */
    public String baseUrl() {
        return "http://" + reachableHost() + ":" + port() + "/v1";
    }

    public String name() {
        return options.name();
    }

    public MockOptions options() {
        return options;
    }

    /** The mode set most recently (the mock may already answer {@code ok} if its {@code times} ran out). */
    public MockMode mode() {
        return schedule.current();
    }

    /** Switches the mode for the calls that arrive from now on; {@code times} counts afresh. */
    public void setMode(MockMode mode) {
        schedule.set(mode);
    }

    /** Model calls received (chat, completions, embeddings, responses), whatever the answer was. */
    public int requests() {
        return ledger.modelCalls();
    }

    /**
     * Calls whose client closed the connection before the mock finished answering: streams
     * cut short by the client, hangs, slow answers given up on. The mock's own {@code cut}s
     * do not count.
     */
    public int cancelledStreams() {
        return ledger.clientsGone();
    }

    /** Client connections open right now. */
    public int openConnections() {
        return ledger.openConnections();
    }

    /**
     * The JSON bodies of the last {@value MockLedger#KEPT} model calls, oldest first; a body that
     * was not JSON is a JSON null. Index {@code i} matches {@link #receivedHeaders()}.
     */
    public List<JsonNode> receivedBodies() {
        return ledger.bodies();
    }

    /**
     * The {@code previous_response_id} of each of the last {@value MockLedger#KEPT} model calls
     * that named one, oldest first, whether the mock knew it or refused it.
     */
    public List<String> receivedPreviousResponseIds() {
        return ledger.bodies().stream()
                .map(body -> body.path("previous_response_id"))
                .filter(JsonNode::isTextual)
                .map(JsonNode::asText)
                .toList();
    }

    /** The headers of the last {@value MockLedger#KEPT} model calls, oldest first, names in lower case. */
    public List<Map<String, String>> receivedHeaders() {
        return ledger.headers();
    }

    /** Forgets what was received and zeroes the counters; the mode keeps, and gets its {@code times} again. */
    public void reset() {
        ledger.reset();
        schedule.restart();
    }

    /** Stops listening and drops open connections; completes once done. Idempotent. */
    public Future<Void> closeAsync() {
        if (!closed.compareAndSet(false, true)) {
            return Future.succeededFuture();
        }
        // An own Vert.x takes its server down with it. Chaining its close after the server's
        // would complete on the very event loop that close terminates, and never complete.
        return ownsVertx ? vertx.close() : server.close();
    }

    /** Stops listening and drops open connections; blocks until done. Idempotent. */
    @Override
    public void close() {
        await(closeAsync(), STOP_TIMEOUT, "stopping mock '" + options.name() + "'");
    }

    @Override
    public String toString() {
        return "MockUpstream[" + options.name() + " " + schedule.current().cliName() + " " + baseUrl() + "]";
    }

    /** A wildcard bind address is reachable on loopback; IPv6 literals need brackets in a URL. */
    private String reachableHost() {
        String host = options.host();
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return "127.0.0.1";
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static <T> T await(Future<T> future, Duration timeout, String what) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException(what + ": cannot block an event loop; use startAsync/closeAsync");
        }
        try {
            return future.toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(what + " failed: " + failed.getCause(), failed.getCause());
        } catch (TimeoutException slow) {
            throw new IllegalStateException(what + " took longer than " + timeout.toSeconds() + "s", slow);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted", interrupted);
        }
    }
}
