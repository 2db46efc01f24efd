package dev.sluice.server;

import dev.sluice.call.Deadlines;
import dev.sluice.call.RequestFactsReader;
import dev.sluice.spend.MeteredSpend;
import dev.sluice.access.AccessControl;
import dev.sluice.access.Accounts;
import dev.sluice.access.KeyDirectory;
import dev.sluice.spend.SpendRecorder;
import dev.sluice.spend.SpendSeeds;
import dev.sluice.config.SluiceConfig;
import dev.sluice.spend.CallCost;
import dev.sluice.metrics.GatewayMetrics;
import dev.sluice.metrics.ProcessGauges;
import dev.sluice.tracing.GatewayTracing;
import dev.sluice.tracing.OtlpSetup;
import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.RateLimits;
import dev.sluice.spend.SpendCounters;
import dev.sluice.store.StoreOptions;
import dev.sluice.provider.Providers;
import dev.sluice.router.ModelRegistry;
import dev.sluice.guardrail.Guardrails;
import dev.sluice.health.HealthChecks;
import dev.sluice.router.Backoff;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.Router;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.RouterLog;
import dev.sluice.router.ThreadLocalRandomSource;
import dev.sluice.state.CooldownStore;
import dev.sluice.state.InMemoryCooldownStore;
import dev.sluice.sync.ModelEntries;
import dev.sluice.sync.StoredModelSync;
import dev.sluice.sync.StoredRouterSettingsSync;
import dev.sluice.state.redis.RedisCachePins;
import dev.sluice.state.redis.RedisCooldownStore;
import dev.sluice.state.redis.RedisInFlightCounts;
import dev.sluice.state.redis.RedisLatencySamples;
import dev.sluice.state.redis.RedisLink;
import dev.sluice.state.redis.RedisRateLimits;
import dev.sluice.state.redis.RedisUsageWindows;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.strategy.Strategies;
import dev.sluice.state.RoutingSignals;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * A running gateway: one HTTP server per event loop on one port, all sharing one
 * {@link Gateway}. Start it with {@link #start}; {@link #close} stops it and its event loops.
 */
public final class GatewayServer implements AutoCloseable {
    private final Vertx vertx;
    private final int port;
    private final Optional<Accounts> accounts;
    private final Optional<RedisLink> redis;
    private final Optional<RedisInFlightCounts> sharedInFlight;
    private final Optional<RedisRateLimits> sharedLimits;
    private final Optional<StoredModelSync> storedModels;
    private final Optional<GatewayTracing> tracing;
    private final Optional<StoredRouterSettingsSync> storedSettings;

    /** How long start-up waits for Redis before serving on local state (it keeps reconnecting after). */
    private static final Duration REDIS_START_WAIT = Duration.ofSeconds(2);

    private GatewayServer(Vertx vertx, int port, Optional<Accounts> accounts, Optional<RedisLink> redis,
            Optional<RedisInFlightCounts> sharedInFlight, Optional<RedisRateLimits> sharedLimits,
            Optional<StoredModelSync> storedModels, Optional<GatewayTracing> tracing,
            Optional<StoredRouterSettingsSync> storedSettings) {
        this.vertx = vertx;
        this.port = port;
        this.accounts = accounts;
        this.redis = redis;
        this.sharedInFlight = sharedInFlight;
        this.sharedLimits = sharedLimits;
        this.storedModels = storedModels;
        this.tracing = tracing;
        this.storedSettings = storedSettings;
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
        return start(config, host, port, env, random, clock, eventLoops, RouterEvents.NONE, Backoff.DEFAULT);
    }

    /**
     * @param events  told of every routing decision, besides the log
     * @param backoff the waits before a deployment is tried again in place
     */
    public static GatewayServer start(SluiceConfig config, String host, int port, Map<String, String> env,
            RandomGenerator random, Clock clock, int eventLoops, RouterEvents events, Backoff backoff) {
        ModelRegistry models = new ModelRegistry(config.deployments());
        GatewayMetrics metrics = new GatewayMetrics();
        Optional<GatewayTracing> tracing = OtlpSetup.fromEnv(env);
        RouterEvents told = RouterEvents.all(new RouterLog(), metrics, tracing.<RouterEvents>map(t -> t).orElse(RouterEvents.NONE),
                events);
        Optional<Accounts> accounts = Accounts.open(config.general(), StoreOptions.DEFAULTS, clock);
        // The router settings in effect: the file's, with those changed through the API over them, served from the first request.
        LiveRouterSettings settings = new LiveRouterSettings(config.router());
        Optional<StoredRouterSettingsSync> storedSettings = accounts.map(store -> new StoredRouterSettingsSync(
                store.routerSettings(), settings, StoredRouterSettingsSync.DEFAULT_INTERVAL).start());
        // With Redis configured, replicas share benches and failure counts; without it, they live in process.
        Optional<RedisLink> redis = RedisLink.configured(config.router(), clock);
        CooldownStore cooldownStore = redis.<CooldownStore>map(link -> new RedisCooldownStore(link, clock))
                .orElseGet(InMemoryCooldownStore::new);
        // In-flight counts, usage windows, cache pins and latency samples are shared too.
        Optional<RedisInFlightCounts> sharedInFlight = redis.map(link -> new RedisInFlightCounts(link, clock));
        RoutingSignals signals = redis.map(link -> new RoutingSignals(sharedInFlight.orElseThrow(), new RedisUsageWindows(link),
                        new RedisLatencySamples(link), new RedisCachePins(link, clock)))
                .orElseGet(RoutingSignals::inMemory);
        // Key, team and model-per-key rate limits are counted in Redis too, on local counts while it is away.
        Optional<RedisRateLimits> sharedLimits = redis.map(link -> new RedisRateLimits(link, new RateLimits(clock), clock));
        redis.ifPresent(link -> link.start(REDIS_START_WAIT));
        Cooldowns cooldowns = new Cooldowns(settings, cooldownStore, clock, told);
        if (RequestFactsReader.countsTokens(config.router()) || accounts.isPresent()) {
            // Tokenizer tables take about half a second each to load: when the config counts
            // tokens (routing, or accounting answers that report no usage), load the ones its
            // deployments use beside start-up so the first request does not wait for them.
            List<TokenEncoding> used = config.deployments().stream()
                    .map(deployment -> TokenEncoding.forModel(deployment.params().providerModel()))
                    .distinct()
                    .toList();
            Thread.ofVirtual().name("sluice-tokenizer-load").start(() -> used.forEach(TokenEncoding::load));
        }
        ModelCatalog catalog = new BundledModelCatalog();
        Strategies strategies = new Strategies(signals, catalog, config.router().routingStrategyArgs(), clock, random);
        PreCallChecks preCallChecks = new PreCallChecks(config.router(), catalog, signals.cachePins(), clock);
        Router router = new Router(models, settings, cooldowns, strategies, preCallChecks, clock, random, backoff,
                System::nanoTime, told, Deadlines::attempt);
        RateLimiter limits = sharedLimits.<RateLimiter>map(shared -> shared).orElseGet(() -> new RateLimits(clock));
        AccessControl access = accessControl(config, accounts, catalog, limits, metrics, clock);
        Providers providers = Providers.builtIn(env);
        Guardrails guardrails = Guardrails.of(config.guardrails());
        // Models added through the API live in the store: served from the first request, and kept in step with other replicas.
        Optional<StoredModelSync> storedModels = accounts.map(store -> new StoredModelSync(store.models(), models,
                new ModelEntries(Map.copyOf(env), providers, guardrails), StoredModelSync.DEFAULT_INTERVAL).start());
        MetricGauges.register(metrics, models, cooldowns, signals, redis, accounts, storedModels);
        ProcessGauges.register(metrics);
        HealthChecks health = new HealthChecks(config.general().healthChecks(), models, providers, cooldowns,
                deployment -> Deadlines.attempt(settings.current(), deployment), clock, System::nanoTime);
        Gateway gateway = new Gateway(config, models, providers, router, guardrails, access, accounts, redis, storedModels,
                storedSettings, metrics, tracing, health, clock, Map.copyOf(env), System::nanoTime, clock.instant().getEpochSecond());
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(eventLoops).setPreferNativeTransport(true));
        try {
            // One deployment of N instances asking for the same port: Vert.x shares one
            // listening socket among the event loops. A negative port is Vert.x's way of
            // asking for one random port that all instances share; 0 would give each its own.
            int requested = port == 0 ? -1 : port;
            List<GatewayVerticle> verticles = new CopyOnWriteArrayList<>();
            vertx.deployVerticle(() -> {
                GatewayVerticle verticle = new GatewayVerticle(gateway, host, requested);
                verticles.add(verticle);
                return verticle;
            }, new DeploymentOptions().setInstances(eventLoops)).await(30, TimeUnit.SECONDS);
            health.startBackground(vertx);
            int actual = verticles.get(0).actualPort();
            for (GatewayVerticle verticle : verticles) {
                if (verticle.actualPort() != actual) {
                    throw new IllegalStateException("event loops listen on different ports: " + verticle.actualPort() + " and " + actual);
                }
            }
            return new GatewayServer(vertx, actual, accounts, redis, sharedInFlight, sharedLimits, storedModels, tracing,
                    storedSettings);
        } catch (Exception e) {
            vertx.close();
            tracing.ifPresent(GatewayTracing::close);
            storedModels.ifPresent(StoredModelSync::close);
            storedSettings.ifPresent(StoredRouterSettingsSync::close);
            accounts.ifPresent(Accounts::close);
            sharedInFlight.ifPresent(RedisInFlightCounts::close);
            sharedLimits.ifPresent(RedisRateLimits::close);
            redis.ifPresent(RedisLink::close);
            throw new IllegalStateException("Sluice could not listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static AccessControl accessControl(SluiceConfig config, Optional<Accounts> accounts, ModelCatalog catalog,
            RateLimiter limits, GatewayMetrics metrics, Clock clock) {
        SpendCounters counters = new SpendCounters(clock);
        Optional<KeyDirectory> directory = accounts.map(store -> new KeyDirectory(store.keys(), store.teams(),
                KeyDirectory.DEFAULT_TTL, System::nanoTime, new SpendSeeds(counters, store.spendLog(), clock)));
        SpendRecorder spend = new MeteredSpend(accounts.map(Accounts::spend).orElse(SpendRecorder.NONE), metrics);
        return new AccessControl(config.general(), directory, counters, limits, new CallCost(catalog), spend,
                clock, System::nanoTime);
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
            tracing.ifPresent(GatewayTracing::close);
            storedModels.ifPresent(StoredModelSync::close);
            storedSettings.ifPresent(StoredRouterSettingsSync::close);
            accounts.ifPresent(Accounts::close);
            sharedInFlight.ifPresent(RedisInFlightCounts::close);
            sharedLimits.ifPresent(RedisRateLimits::close);
            redis.ifPresent(RedisLink::close);
        } catch (Exception e) {
            throw new IllegalStateException("Sluice did not stop cleanly: " + e.getMessage(), e);
        }
    }
}
