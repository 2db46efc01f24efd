package dev.sluice.boot;

import dev.sluice.accounts.AccessControl;
import dev.sluice.accounts.Accounts;
import dev.sluice.accounts.KeyCopies;
import dev.sluice.accounts.KeyDirectory;
import dev.sluice.accounts.RedisKeyCopies;
import dev.sluice.accounts.limits.BudgetReserver;
import dev.sluice.accounts.spend.BudgetReservations;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.accounts.spend.SpendRecorder;
import dev.sluice.accounts.spend.SpendSeeds;
import dev.sluice.call.CallObservers;
import dev.sluice.call.CallServices;
import dev.sluice.call.KeyMask;
import dev.sluice.call.RecentCalls;
import dev.sluice.call.RefusalLog;
import dev.sluice.call.RequestFactsReader;
import dev.sluice.call.cache.CacheStore;
import dev.sluice.call.cache.ResponseCache;
import dev.sluice.call.guardrail.Guardrails;
import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.CacheSettings;
import dev.sluice.config.Deployment;
import dev.sluice.config.EdgeSettings;
import dev.sluice.config.GeneralSettings;
import dev.sluice.config.LoggingCallback;
import dev.sluice.config.Secret;
import dev.sluice.config.SluiceConfig;
import dev.sluice.edge.EdgeServices;
import dev.sluice.edge.LiveState;
import dev.sluice.edge.ReadinessFacts;
import dev.sluice.http.BodyBudget;
import dev.sluice.http.BodyLimits;
import dev.sluice.ops.callbacks.CallbackSetup;
import dev.sluice.ops.callbacks.Callbacks;
import dev.sluice.ops.callbacks.Pacing;
import dev.sluice.ops.health.HealthChecks;
import dev.sluice.ops.logging.SecretMask;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.metrics.MeteredSpend;
import dev.sluice.ops.overload.Overload;
import dev.sluice.ops.tracing.GatewayTracing;
import dev.sluice.ops.tracing.OtlpSetup;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.Deadline;
import dev.sluice.router.DeploymentFailures;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.Router;
import dev.sluice.router.RouterEvents;
import dev.sluice.router.RouterFactory;
import dev.sluice.router.RouterLog;
import dev.sluice.state.RedisBudgets;
import dev.sluice.state.RedisResponseCache;
import dev.sluice.state.sync.ModelEntries;
import dev.sluice.state.sync.StoreSync;
import dev.sluice.state.sync.StoredModelSync;
import dev.sluice.state.sync.StoredRouterSettingsSync;
import dev.sluice.store.StoreOptions;
import dev.sluice.time.JobRestarts;
import dev.sluice.time.Scheduler;
import dev.sluice.time.TimeSource;
import dev.sluice.vendors.Providers;
import dev.sluice.vendors.openai.responses.store.MemoryResponses;
import dev.sluice.vendors.openai.responses.store.ResponseLimits;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds every shared part of one gateway from its options, in
 * dependency order, and registers what must be closed with the {@link Teardown}. Read top to
 * bottom, {@link #assemble} is the gateway's wiring diagram.
 */
final class GatewayAssembly {
    private final GatewayOptions options;
    private final SluiceConfig config;
    private final TimeSource time;
    private final Teardown teardown;

    private GatewayAssembly(GatewayOptions options, Teardown teardown) {
        this.options = options;
        this.config = options.config();
        this.time = options.time();
        this.teardown = teardown;
    }

    /** Builds the gateway's shared parts; everything it opened is in {@code teardown}, even if it fails. */
    static Gateway assemble(GatewayOptions options, Teardown teardown) {
        return new GatewayAssembly(options, teardown).assemble();
    }

    private Gateway assemble() {
        ModelRegistry models = new ModelRegistry(config.deployments());
        GatewayMetrics metrics = new GatewayMetrics();
        Optional<GatewayTracing> tracing = OtlpSetup.fromEnv(options.env(),
                config.callbacks().all().contains(LoggingCallback.OTEL)).map(teardown::add);
        ModelCatalog catalog = new BundledModelCatalog();
        Providers providers = Providers.builtIn(options.env(), catalog, time.clock()).leavingOut(config.unserved());
        DeploymentFailures failures = new DeploymentFailures(time.clock(),
                (deployment, text) -> KeyMask.of(providers, deployment).text(text));
        // The log and callback payloads mask every key the deployments are sent, and its echoes, as relayed answers do.
        SecretMask.Known known = teardown.add(SecretMask.known());
        Consumer<List<Deployment>> holdSecrets = served -> known.hold(Stream.concat(KeyMask.secretsOf(providers, served).stream(),
                config.general().masterKey().map(Secret::value).stream()).toList());
        holdSecrets.accept(config.deployments());
        models.whenSwapped(served -> {
            failures.keepOnly(served.stream().map(Deployment::id).collect(Collectors.toSet()));
            holdSecrets.accept(served);
        });
        RouterEvents told = RouterEvents.all(new RouterLog(), metrics, tracing.<RouterEvents>map(t -> t).orElse(RouterEvents.NONE),
                failures, options.events());
        Scheduler scheduler = Scheduler.on(time);
        Optional<Accounts> accounts = Accounts.open(config.general(), StoreOptions.DEFAULTS, time, scheduler)
                .map(teardown::add);
        // Closed before the store, after everything opened below: every job has stopped before the database goes.
        teardown.add(scheduler);
        // The spend journal's commits and shipping run on the scheduler: closed before it, the journal ships what it
        // can to the store, still open, and stops its own threads, rather than have the scheduler interrupt them.
        accounts.ifPresent(store -> teardown.add(store.journaledSpend()));
        // Closed before the scheduler, which would stop their senders, and before the tracing: what the callbacks
        // flush at shutdown may still describe spans.
        Callbacks callbacks = teardown.add(CallbackSetup.start(config.callbacks(), options.env(), tracing, metrics,
                new Pacing(time, options.random(), options.backoff()), scheduler));
        // The router settings in effect: the file's, with those changed through the API over them, served from the first request.
        LiveRouterSettings settings = new LiveRouterSettings(config.router());
        Optional<StoredRouterSettingsSync> storedSettings = accounts.map(store -> teardown.add(started(new StoredRouterSettingsSync(
                store.routerSettings(), settings, StoredRouterSettingsSync.DEFAULT_INTERVAL), store, scheduler)));
        // An operator's redis_socket_timeout wins; else the options' budget: production's 50 ms, or a test's roomier one.
        Duration redisCallBudget = config.router().redis().redisSocketTimeout().orElse(options.redisCallBudget());
        SharedState shared = SharedState.open(config.router(), time.clock(), scheduler, redisCallBudget, teardown);
        RouterFactory.Built routing = new RouterFactory(catalog, options.random(), new Router.Timing(time, options.backoff()), told)
                .build(models, settings, config.router(), new RouterFactory.State(shared.cooldowns(), shared.signals()));
        Cooldowns cooldowns = routing.cooldowns();
        Router router = routing.router();
        preloadTokenizers(accounts.isPresent());
        AccessControl access = accessControl(accounts, catalog, shared, metrics, models);
        Guardrails guardrails = Guardrails.of(config.guardrails());
        // Models added through the API live in the store: served from the first request, and kept in step with other replicas.
        ModelEntries entries = new ModelEntries(options.env(), config.general().modelApi().lent(), providers, guardrails);
        Optional<StoredModelSync> storedModels = accounts.map(store -> teardown.add(started(new StoredModelSync(store.models(),
                models, entries, StoredModelSync.DEFAULT_INTERVAL), store, scheduler)));
        MetricGauges.deployments(metrics, models, cooldowns, shared.signals());
        UnpricedDeployments.report(metrics, models, catalog);
        MetricGauges.redis(metrics, shared.redis(), shared.latencySamples());
        MetricGauges.backgroundJobs(metrics, JobRestarts.process());
        MetricGauges.store(metrics, accounts, storedModels);
        HealthChecks health = new HealthChecks(config.general().healthChecks(), models, providers, cooldowns,
                deployment -> Deadline.own(settings.current(), deployment), time);
        BodyBudget bodyBudget = new BodyBudget(config.general().edge().bufferedRequestBudget());
        sayWhenBodiesOutgrowTheBudget(config.general(), bodyBudget);
        metrics.gauge("sluice_request_body_bytes_held", "Request body bytes held in memory now, against "
                + "general_settings.max_buffered_request_mb.", () -> (double) bodyBudget.held());
        RecentCalls recentCalls = new RecentCalls(RecentCalls.DEFAULT_SIZE);
        EdgeSettings edgeSettings = config.general().edge();
        BodyLimits bodies = new BodyLimits(config.general().maxRequestBytes(), bodyBudget, edgeSettings.json(),
                edgeSettings.requestBodyTimeout());
        Overload overload = teardown.add(Overload.watchingThisJvm(edgeSettings.callsInFlightBound(), edgeSettings.livenessExitAfter(),
                time.ticker(), scheduler));
        CallServices calls = new CallServices(models, providers, router, guardrails, access, time, bodies,
                UUID.randomUUID().toString(), responseCache(metrics), overload,
                new CallObservers(metrics, tracing, callbacks, recentCalls, RefusalLog.withDefaults(time.ticker()),
                        options.callListeners()));
        EdgeServices edge = new EdgeServices(models, access, accounts, shared.redis(), metrics, health,
                time.now().getEpochSecond(), catalog,
                new ReadinessFacts(Optional.of(config.cache()).filter(CacheSettings::enabled)
                        .map(c -> c.type().name().toLowerCase(java.util.Locale.ROOT)),
                        config.callbacks().onSuccess().stream().map(LoggingCallback::wireName).sorted().toList()),
                time.clock(), settings,
                new LiveState(cooldowns, failures, recentCalls));
        return new Gateway(config, calls, edge, accounts, storedModels, storedSettings, time,
                EdgeGuards.of(edgeSettings, overload, metrics),
                new MemoryResponses(ResponseLimits.MEMORY_DEFAULTS, time.clock()));
    }

    /** The response cache the config asks for, in memory or in Redis; empty when it is off. */
    private Optional<ResponseCache> responseCache(GatewayMetrics metrics) {
        CacheSettings settings = config.cache();
        if (!settings.enabled()) {
            return Optional.empty();
        }
        CacheStore store = settings.type() == CacheSettings.Type.REDIS ? RedisResponseCache.open(settings, config.router(), time.clock())
                : ResponseCache.localStore(settings, time.ticker()::getAsLong);
        ResponseCache cache = teardown.add(new ResponseCache(settings, store, time.clock()));
        MetricGauges.cache(metrics, cache);
        return Optional.of(cache);
    }

    /**
     * A store that answered at start-up is read before the gateway listens, so what it holds is
     * served from the first request; one that was away is read in the background once it
     * answers and its schema is applied, so it does not hold up the start.
     */
    private static <S extends StoreSync<S>> S started(S sync, Accounts store, Scheduler scheduler) {
        return store.migrated().isDone() ? sync.start(scheduler) : sync.startAfter(store.migrated(), scheduler);
    }

    /**
     * Tokenizer tables take about half a second each to load: when the config counts tokens
     * (routing, or accounting answers that report no usage), the ones its deployments use load
     * beside start-up so the first request does not wait for them.
     */
    private void preloadTokenizers(boolean accounting) {
        if (!RequestFactsReader.countsTokens(config.router()) && !accounting) {
            return;
        }
        List<TokenEncoding> used = config.deployments().stream()
                .map(deployment -> TokenEncoding.forModel(deployment.params().providerModel()))
                .distinct()
                .toList();
        Thread.ofVirtual().name("sluice-tokenizer-load").start(() -> used.forEach(TokenEncoding::load));
    }

    /**
     * Who may call, and how much. With Redis, budgets are held there so they hold across
     * replicas and through a database outage; rate limits are wherever {@code shared} keeps them.
     */
    private AccessControl accessControl(Optional<Accounts> accounts, ModelCatalog catalog, SharedState shared,
            GatewayMetrics metrics, ModelRegistry models) {
        SpendCounters counters = new SpendCounters(time.clock());
        Optional<KeyDirectory> directory = accounts.map(store -> {
            SpendSeeds seeds = new SpendSeeds(counters, store.spendLog(), config.general().spendLogs().retention(), time.clock());
            Duration copyLifetime = config.general().store().keyCopyLifetime();
            KeyCopies copies = shared.redis().filter(link -> !copyLifetime.isZero())
                    .<KeyCopies>map(link -> new RedisKeyCopies(link, copyLifetime)).orElse(KeyCopies.NONE);
            return KeyDirectory.of(store, KeyDirectory.DEFAULT_TTL, time.ticker(), seeds, seeds::customer, copies);
        });
        directory.ifPresent(keys -> metrics.counterOf("sluice_key_store_reads_total",
                "Keys read from the database (first reads and refreshes of the key cache).", () -> (double) keys.storeReads()));
        SpendRecorder spend = new MeteredSpend(accounts.map(Accounts::spend).orElse(SpendRecorder.NONE), metrics);
        BudgetReservations local = new BudgetReservations(counters);
        BudgetReserver budgets = shared.redis().<BudgetReserver>map(link -> new RedisBudgets(link, local, counters, time.clock()))
                .orElse(local);
        return new AccessControl(config.general(), directory, shared.rateLimiter(),
                new AccessControl.Ledger(counters, new CallCost(catalog), spend, budgets), time,
                () -> models.current().accessGroups());
    }

    /**
     * Says at start-up when the largest body the gateway may buffer is below
     * {@code max_request_size_mb}: under the default heap and settings this is expected, and
     * said at INFO; with a request size or budget the config chose, the two disagree: a WARN.
     */
    private static void sayWhenBodiesOutgrowTheBudget(GeneralSettings general, BodyBudget bodyBudget) {
        if (bodyBudget.limit() >= general.maxRequestBytes()) {
            return;
        }
        boolean chosen = general.maxRequestBytes() != GeneralSettings.DEFAULT_MAX_REQUEST_BYTES
                || general.edge().maxBufferedRequestBytes().isPresent();
        String message = "request bodies over {} bytes are refused with 413: that is all the gateway may buffer "
                + "(general_settings.max_buffered_request_mb, else an eighth of the {} byte heap), below "
                + "max_request_size_mb's {} bytes. Raise the heap (SLUICE_JAVA_OPTS=-Xmx...) or set "
                + "max_buffered_request_mb to take larger bodies.";
        Object[] values = {bodyBudget.limit(), Runtime.getRuntime().maxMemory(), general.maxRequestBytes()};
        if (chosen) {
            LoggerFactory.getLogger(GatewayAssembly.class).warn(message, values);
        } else {
            LoggerFactory.getLogger(GatewayAssembly.class).info(message, values);
        }
    }
}
