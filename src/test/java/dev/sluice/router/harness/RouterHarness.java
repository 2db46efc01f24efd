package dev.sluice.router.harness;

import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.SluiceConfig;
import dev.sluice.router.CallerOverrides;
import dev.sluice.router.Cooldowns;
import dev.sluice.router.FallbackGate;
import dev.sluice.router.LiveRouterSettings;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.ModelRegistry;
import dev.sluice.router.RouteOutcome;
import dev.sluice.router.RouteRequest;
import dev.sluice.router.Router;
import dev.sluice.router.RouterFactory;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.testing.FakeTime;
import dev.sluice.testing.RecordingEvents;
import dev.sluice.time.Backoff;
import dev.sluice.vendors.Providers;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link Router} built as the composition root builds it, from config text, but over fake
 * time ({@link FakeTime}), seeded randomness ({@link SeededRandom}), in-memory state, waits
 * that only move the fake time ({@link FakeDelays}), upstreams that follow a script
 * ({@link ScriptedAttempter}) and a recorder of every event ({@link RecordingEvents}).
 * Everything answers at once, so {@link #route} returns the outcome without an event loop,
 * a socket or a sleep.
 */
public final class RouterHarness {
    /** The seed of every harness's randomness: a twin {@code new Random(SEED)} replays its draws. */
    public static final long SEED = 7;

    /** The prompt size every routed request has. */
    public static final int PROMPT_TOKENS = 100;

    private final FakeTime time = new FakeTime();
    private final RecordingEvents events = new RecordingEvents(time);
    private final ScriptedAttempter upstreams = new ScriptedAttempter(time);
    private final FakeDelays delays = new FakeDelays(time);
    private final SeededRandom random = new SeededRandom(SEED);
    private final ModelRegistry models;
    private final Cooldowns cooldowns;
    private final Router router;
    private int calls;

    private RouterHarness(SluiceConfig config, Backoff backoff) {
        models = new ModelRegistry(config.deployments());
        RouterFactory.Built built = new RouterFactory(new BundledModelCatalog(), random, new Router.Timing(time.source(), backoff), events)
                .build(models, new LiveRouterSettings(config.router()), config.router(), RouterFactory.State.inMemory());
        cooldowns = built.cooldowns();
        router = built.router();
    }

    /** A harness over this config and the production backoff ({@link Backoff#DEFAULT}). */
    public static RouterHarness of(ConfigText config) {
        return of(config, Backoff.DEFAULT);
    }

    public static RouterHarness of(ConfigText config, Backoff backoff) {
        try {
            return new RouterHarness(ConfigLoader.parse(config.yaml(), Map.of(), Providers.knownPrefixes()), backoff);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.problems() + " in:\n" + config.yaml(), e);
        }
    }

    /** Routes one request to {@code group} as a caller with no overrides, keys or budgets would. */
    public RouteOutcome<String> route(String group) {
        return route(group, CallerOverrides.NONE, FallbackGate.OPEN);
    }

    public RouteOutcome<String> route(String group, CallerOverrides overrides) {
        return route(group, overrides, FallbackGate.OPEN);
    }

    public RouteOutcome<String> route(String group, CallerOverrides overrides, FallbackGate gate) {
        return route(group, overrides, gate, List.of());
    }

    /** Routes one request carrying {@code tags}, as a caller with no overrides, keys or budgets would. */
    public RouteOutcome<String> route(String group, List<String> tags) {
        return route(group, CallerOverrides.NONE, FallbackGate.OPEN, tags);
    }

    /** Routes one request and returns its outcome, which must be complete when route returns. */
    public RouteOutcome<String> route(String group, CallerOverrides overrides, FallbackGate gate, List<String> tags) {
        ModelGroup requested = models.current().find(group).orElseThrow(() -> new IllegalArgumentException("no group " + group));
        String callId = "call-" + ++calls;
        Future<RouteOutcome<String>> outcome = router.route(new RouteRequest<>(callId, requested, overrides,
                new RequestFacts(group, PROMPT_TOKENS, false, Optional.empty()), tags, upstreams, delays, () -> false, gate));
        if (!outcome.isComplete()) {
            throw new AssertionError("routing did not complete synchronously");
        }
        if (outcome.failed()) {
            // A scripted attempter's complaint, made inside a composed future, reaches the test as itself.
            throw outcome.cause() instanceof AssertionError scripted ? scripted : new AssertionError("routing failed", outcome.cause());
        }
        return outcome.result();
    }

    public FakeTime time() {
        return time;
    }

    public RecordingEvents events() {
        return events;
    }

    public ScriptedAttempter upstreams() {
        return upstreams;
    }

    public FakeDelays delays() {
        return delays;
    }

    public SeededRandom random() {
        return random;
    }

    public Cooldowns cooldowns() {
        return cooldowns;
    }

    public ModelRegistry models() {
        return models;
    }
}
