package dev.sluice.router.strategy;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.RouterVocabulary;
import dev.sluice.router.signals.RoutingSignals;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * Every routing strategy LiteLLM names, built once over one set of signal stores, with the
 * {@link SignalRecorder} that feeds them. Whether a strategy is the configured
 * {@code routing_strategy} or named in a request's {@code router_settings_override}, it is
 * the same instance reading the same signals, so a per-request choice routes as well as the
 * configured one (the gap LiteLLM's LIT-7682 describes).
 */
public final class Strategies {
    /**
     * The names {@code routing_strategy} accepts, as LiteLLM spells them: the configuration's
     * vocabulary, which the constructor checks this class builds one strategy for each of.
     */
    public static final List<String> NAMES = RouterVocabulary.ROUTING_STRATEGIES;

    private final Map<String, RoutingStrategy> byName;
    private final LatencyArgs latencyArgs;
    private final SignalRecorder recorder;

    /**
     * @param routingStrategyArgs {@code router_settings.routing_strategy_args} as written
     * @throws IllegalArgumentException when an arg's value breaks its rule; the message
     *         names the arg, the value and the rule (see {@link LatencyArgs#from})
     */
    public Strategies(RoutingSignals signals, ModelCatalog catalog, Map<String, Object> routingStrategyArgs,
            Clock clock, RandomGenerator random) {
        this.latencyArgs = LatencyArgs.from(routingStrategyArgs);
        Map<String, RoutingStrategy> strategies = new LinkedHashMap<>();
        add(strategies, new SimpleShuffleStrategy(random));
        add(strategies, new LeastBusyStrategy(signals.inFlight(), random));
        add(strategies, new UsageBasedStrategy(UsageBasedStrategy.NAME, signals.usage(), clock, random));
        add(strategies, new UsageBasedStrategy(UsageBasedStrategy.NAME_V2, signals.usage(), clock, random));
        add(strategies, new LatencyBasedStrategy(signals.latency(), signals.usage(), latencyArgs, clock, random));
        add(strategies, new CostBasedStrategy(catalog, signals.usage(), clock, random));
        if (!strategies.keySet().equals(Set.copyOf(NAMES))) {
            throw new IllegalStateException("strategies " + strategies.keySet() + " do not match the names " + NAMES);
        }
        this.byName = Map.copyOf(strategies);
        this.recorder = new SignalRecorder(signals, latencyArgs, clock);
    }

    private static void add(Map<String, RoutingStrategy> strategies, RoutingStrategy strategy) {
        strategies.put(strategy.name(), strategy);
    }

    /**
     * The strategy called {@code name} in {@code routing_strategy}.
     *
     * @throws IllegalArgumentException for a name LiteLLM does not define
     */
    public RoutingStrategy named(String name) {
        RoutingStrategy strategy = byName.get(name);
        if (strategy == null) {
            throw new IllegalArgumentException("routing_strategy: '" + name + "' (expected one of: "
                    + String.join(", ", NAMES) + ")");
        }
        return strategy;
    }

    /** The recorder writing the signals these strategies read. */
    public SignalRecorder recorder() {
        return recorder;
    }

    /** The latency args in effect, defaults filled in. */
    public LatencyArgs latencyArgs() {
        return latencyArgs;
    }
}
