package dev.sluice.boot;

import dev.sluice.config.SluiceConfig;
import dev.sluice.http.Drain;
import dev.sluice.ops.overload.Liveness;
import dev.sluice.time.TimeSource;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running gateway: one HTTP server per event loop on one port, all sharing one
 * {@link Gateway}. Start it with {@link #start}; {@link #close} stops it and its event loops.
 */
public final class GatewayServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GatewayServer.class);
    /** How long cut calls get to write their last bytes before their connections are closed anyway. */
    private static final Duration CUT_GRACE = Duration.ofSeconds(2);

    private final Vertx vertx;
    private final int port;
    private final Teardown teardown;
    /**
     * The time a drain is measured in: the process's own, whatever time the gateway was given,
     * since the deadline is the one the operator's {@code SIGTERM} (and its {@code SIGKILL} after
     * a grace period) counts in.
     */
    private static final TimeSource PROCESS_TIME = TimeSource.system();
    /** How often a drain looks whether calls are still in flight. */
    private static final Duration DRAIN_POLL = Duration.ofMillis(10);
    private final List<GatewayVerticle> verticles;
    private final Drain drain;
    private final Duration drainTimeout;
    private final Liveness liveness;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicBoolean draining = new java.util.concurrent.atomic.AtomicBoolean();

    private GatewayServer(Vertx vertx, Listening listening, Teardown teardown, Drain drain, Gateway gateway) {
        this.vertx = vertx;
        this.port = listening.port();
        this.verticles = listening.verticles();
        this.teardown = teardown;
        this.drain = drain;
        this.drainTimeout = gateway.config().general().drainTimeout();
        this.liveness = gateway.guards().overload().liveness();
    }

    private record Listening(int port, List<GatewayVerticle> verticles) {}

    /** Starts the gateway with production defaults: all cores, thread-local randomness, the system's time. */
    public static GatewayServer start(SluiceConfig config, String host, int port, Map<String, String> env) {
        return start(GatewayOptions.of(config, host, port, env));
    }

    /**
     * Starts the gateway and blocks until it listens. Port 0 takes a free port; {@link #port()}
     * tells which.
     */
    public static GatewayServer start(GatewayOptions options) {
        Teardown teardown = new Teardown();
        Gateway gateway;
        try {
            gateway = GatewayAssembly.assemble(options, teardown);
        } catch (RuntimeException e) {
            teardown.close(); // what was opened before the part that failed
            throw e;
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(options.eventLoops()).setPreferNativeTransport(true));
        try {
            Drain drain = new Drain();
            Listening listening = listen(vertx, gateway, options, drain);
            gateway.edge().health().startBackground(vertx);
            return new GatewayServer(vertx, listening, teardown, drain, gateway);
        } catch (Exception e) {
            vertx.close();
            teardown.close();
            throw new IllegalStateException("Sluice could not listen on " + options.host() + ":" + options.port() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * One deployment of N instances asking for the same port: Vert.x shares one listening
     * socket among the event loops. A negative port is Vert.x's way of asking for one random
     * port that all instances share; 0 would give each its own.
     */
    private static Listening listen(Vertx vertx, Gateway gateway, GatewayOptions options, Drain drain) throws Exception {
        int requested = options.port() == 0 ? -1 : options.port();
        List<GatewayVerticle> verticles = new CopyOnWriteArrayList<>();
        vertx.deployVerticle(() -> {
            GatewayVerticle verticle = new GatewayVerticle(gateway, options.host(), requested, drain);
            verticles.add(verticle);
            return verticle;
        }, new DeploymentOptions().setInstances(options.eventLoops())).await(30, TimeUnit.SECONDS);
        int actual = verticles.get(0).actualPort();
        for (GatewayVerticle verticle : verticles) {
            if (verticle.actualPort() != actual) {
                throw new IllegalStateException("event loops listen on different ports: " + verticle.actualPort() + " and " + actual);
            }
        }
        return new Listening(actual, List.copyOf(verticles));
    }

    public int port() {
        return port;
    }

    /** The network transport in use: {@code epoll} on Linux when it loads, else {@code nio}. */
    public String transport() {
        return vertx.isNativeTransportEnabled() ? "epoll" : "nio";
    }

    /**
     * Makes the process exit (status {@value Liveness#EXIT_STATUS}) once it has failed liveness
     * for {@code general_settings.liveness_exit_after_seconds}: for the process that owns this
     * gateway (the command line), never for one that embeds it.
     */
    public void exitWhenNotAlive() {
        liveness.exitWith(() -> Runtime.getRuntime().halt(Liveness.EXIT_STATUS));
    }

    /** The drain deadline configured ({@code general_settings.drain_timeout_seconds}). */
    public Duration drainTimeout() {
        return drainTimeout;
    }

    /**
     * Stops the gateway gracefully, as on {@code SIGTERM}. The listener stays open all through
     * the drain, so that probes and load balancers see the stop rather than a refused
     * connection: readiness answers 503, liveliness and {@code /metrics} answer, and any other
     * call, on a new connection or a kept-alive one, is answered 503 {@code shutting_down} with
     * {@code Retry-After} and {@code Connection: close}. Calls in flight get until
     * {@code deadline} to finish; then a stream still open ends with the
     * {@code stream_interrupted} error event and any other call is answered 503. Only then does
     * the listener close, and with it the upstream clients and the stores ({@link #close()}).
     * Logs what the drain finished and cut. Runs once: a second call returns at once.
     */
    public void drain(Duration deadline) {
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        refuseNewCalls();
        long started = PROCESS_TIME.nanos();
        int inFlight = drain.inFlight();
        awaitCalls(started + deadline.toNanos());
        int cut = 0;
        if (drain.inFlight() > 0) {
            log.warn("shutdown.drain_deadline calls_cut={} deadline_seconds={}", drain.inFlight(), deadline.toSeconds());
            cut = drain.cutAll();
            awaitCalls(PROCESS_TIME.nanos() + CUT_GRACE.toNanos());
        }
        log.info("shutdown.drained calls_in_flight={} calls_finished={} calls_cut={} took_ms={}", inFlight,
                Math.max(0, drain.endedWhileDraining() - cut), cut, Duration.ofNanos(PROCESS_TIME.nanos() - started).toMillis());
        List<Future<Void>> stopping = verticles.stream().map(v -> v.stopListening(CUT_GRACE)).toList();
        try {
            Future.join(stopping).await(CUT_GRACE.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.warn("shutdown.connections_left error={}", e.toString());
        }
        close();
    }

    /**
     * The first step of {@link #drain}, on its own: from now on readiness answers 503 and every
     * new call 503 {@code shutting_down}, while the gateway still listens and calls in flight
     * go on.
     */
    public void refuseNewCalls() {
        drain.start();
    }

    /** Waits until no call is in flight or {@code untilNanos} has come. */
    private void awaitCalls(long untilNanos) {
        while (drain.inFlight() > 0 && PROCESS_TIME.nanos() < untilNanos) {
            try {
                PROCESS_TIME.sleep(DRAIN_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Sluice did not stop cleanly: " + e.getMessage(), e);
        } finally {
            teardown.close();
        }
    }
}
