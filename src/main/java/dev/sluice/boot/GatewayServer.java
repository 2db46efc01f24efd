package dev.sluice.boot;

import dev.sluice.config.SluiceConfig;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A running gateway: one HTTP server per event loop on one port, all sharing one
 * {@link Gateway}. Start it with {@link #start}; {@link #close} stops it and its event loops.
 */
public final class GatewayServer implements AutoCloseable {
    private final Vertx vertx;
    private final int port;
    private final Teardown teardown;

    private GatewayServer(Vertx vertx, int port, Teardown teardown) {
        this.vertx = vertx;
        this.port = port;
        this.teardown = teardown;
    }

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
            int port = listen(vertx, gateway, options);
            gateway.edge().health().startBackground(vertx);
            return new GatewayServer(vertx, port, teardown);
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
    private static int listen(Vertx vertx, Gateway gateway, GatewayOptions options) throws Exception {
        int requested = options.port() == 0 ? -1 : options.port();
        List<GatewayVerticle> verticles = new CopyOnWriteArrayList<>();
        vertx.deployVerticle(() -> {
            GatewayVerticle verticle = new GatewayVerticle(gateway, options.host(), requested);
            verticles.add(verticle);
            return verticle;
        }, new DeploymentOptions().setInstances(options.eventLoops())).await(30, TimeUnit.SECONDS);
        int actual = verticles.get(0).actualPort();
        for (GatewayVerticle verticle : verticles) {
            if (verticle.actualPort() != actual) {
                throw new IllegalStateException("event loops listen on different ports: " + verticle.actualPort() + " and " + actual);
            }
        }
        return actual;
    }

    public int port() {
        return port;
    }

    /** The network transport in use: {@code epoll} on Linux when it loads, else {@code nio}. */
    public String transport() {
        return vertx.isNativeTransportEnabled() ? "epoll" : "nio";
    }

    @Override
    public void close() {
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Sluice did not stop cleanly: " + e.getMessage(), e);
        } finally {
            teardown.close();
        }
    }
}
