package dev.sluice.server;

import dev.sluice.config.SluiceConfig;
import dev.sluice.provider.Providers;
import dev.sluice.router.ModelGroups;
import dev.sluice.router.ThreadLocalRandomSource;
import dev.sluice.router.WeightedShuffle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * A running gateway: one HTTP server per event loop on one port, all sharing one
 * {@link Gateway}. Start it with {@link #start}; {@link #close} stops it and its event loops.
 */
public final class GatewayServer implements AutoCloseable {
    private final Vertx vertx;
    private final int port;

    private GatewayServer(Vertx vertx, int port) {
        this.vertx = vertx;
        this.port = port;
    }

    /** Starts the gateway with production defaults: all cores, thread-local randomness, the system clock. */
    public static GatewayServer start(SluiceConfig config, String host, int port, Map<String, String> env) {
        return start(config, host, port, env, new ThreadLocalRandomSource(), Clock.systemUTC(),
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * Starts the gateway and blocks until it listens. {@code port} 0 takes a free port;
     * {@link #port()} tells which.
     */
    public static GatewayServer start(SluiceConfig config, String host, int port, Map<String, String> env,
            RandomGenerator random, Clock clock, int eventLoops) {
        Gateway gateway = new Gateway(config, ModelGroups.of(config.deployments()), Providers.builtIn(env),
                new WeightedShuffle(random), new Authenticator(config.general().masterKey()),
                clock.instant().getEpochSecond());
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(eventLoops).setPreferNativeTransport(true));
        try {
            List<GatewayVerticle> verticles = new ArrayList<>();
            // The first server binds (port 0 resolves here); the others share its actual port.
            GatewayVerticle first = new GatewayVerticle(gateway, host, port);
            vertx.deployVerticle(first).await(30, TimeUnit.SECONDS);
            int actual = first.actualPort();
            for (int i = 1; i < eventLoops; i++) {
                GatewayVerticle next = new GatewayVerticle(gateway, host, actual);
                vertx.deployVerticle(next, new DeploymentOptions()).await(30, TimeUnit.SECONDS);
                verticles.add(next);
            }
            return new GatewayServer(vertx, actual);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("Sluice could not listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Sluice did not stop cleanly: " + e.getMessage(), e);
        }
    }
}
