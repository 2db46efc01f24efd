package dev.sluice.bench;

import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.ConfigLoader;
import dev.sluice.config.Deployment;
import dev.sluice.config.SluiceConfig;
import dev.sluice.provider.Providers;
import dev.sluice.router.ThreadLocalRandomSource;
import dev.sluice.router.precall.Checked;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.strategy.LatencyArgs;
import dev.sluice.router.strategy.LatencyBasedStrategy;
import dev.sluice.router.strategy.Pick;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.RoutingStrategy;
import dev.sluice.router.strategy.SignalRecorder;
import dev.sluice.router.strategy.Strategies;
import dev.sluice.state.RoutingSignals;
import dev.sluice.state.UsageWindows;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One routing decision in a model group of 100 deployments: a strategy's {@code pick} over
 * all of them, for each of the six strategies, and the pre-call checks over the same group.
 * The live signals are filled as a busy group's would be: calls open on most deployments,
 * this minute's usage on most (a few at their limits), and ten recent latency samples on
 * most. The clock is fixed, so every pick reads the same minute and the same samples; the
 * random source is the one the gateway runs with. Run with {@code bench/jmh.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RoutingDecisionBenchmark {

    static final int DEPLOYMENTS = 100;
    static final String GROUP = "bench";
    static final Instant NOW = Instant.parse("2026-12-03T10:15:30Z");

    /** An ordinary request: a whole answer for a prompt of 600 tokens, no cacheable prefix. */
    static final RequestFacts REQUEST = new RequestFacts(GROUP, 600, false, Optional.empty());

    /** The same request asking for a stream, which latency-based routing ranks by time to first event. */
    static final RequestFacts STREAM_REQUEST = new RequestFacts(GROUP, 600, true, Optional.empty());

    /**
     * A prompt of 20000 tokens, longer than the window of the 10 deployments that take at
     * most 16384: the context-window check drops those and says why for each.
     */
    static final RequestFacts LONG_REQUEST = new RequestFacts(GROUP, 20_000, false, Optional.empty());

    private static final String[] MODELS = {"gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-4.1", "o4-mini"};

    /** The group and its config, built from config text as the gateway reads it. */
    static SluiceConfig config() {
        StringBuilder yaml = new StringBuilder("model_list:\n");
        for (int i = 0; i < DEPLOYMENTS; i++) {
            String model = MODELS[i % MODELS.length];
            // Backups (weight 0) at two places; the rest weighted 1 to 5.
            int weight = i == 17 || i == 71 ? 0 : 1 + i % 5;
            int rpm = 600 + 100 * (i % 25);
            int tpm = 100_000 + 10_000 * (i % 50);
            // Four price levels, so cost-based has ties to break.
            double input = (1 + i % 4) * 1.5e-7;
            double output = (1 + i % 4) * 6e-7;
            // Ten deployments with a small window; the rest as the table says or 128000.
            String window = i % 10 == 3 ? ", max_input_tokens: 16384" : i % 2 == 0 ? ", max_input_tokens: 128000" : "";
            yaml.append("  - model_name: ").append(GROUP).append('\n')
                    .append("    litellm_params: {model: openai/").append(model)
                    .append(", api_base: 'http://10.0.").append(i / 250).append('.').append(i % 250).append(":8000/v1'")
                    .append(", rpm: ").append(rpm).append(", tpm: ").append(tpm)
                    .append(", weight: ").append(weight)
                    .append(", input_cost_per_token: ").append(input)
                    .append(", output_cost_per_token: ").append(output).append("}\n")
                    .append("    model_info: {id: deployment-").append(String.format("%03d", i)).append(window).append("}\n");
        }
        yaml.append("router_settings:\n")
                .append("  enable_pre_call_checks: true\n")
                .append("  routing_strategy_args: {ttl: 600, lowest_latency_buffer: 0.5, max_latency_list_size: 10}\n");
        try {
            SluiceConfig config = ConfigLoader.parse(yaml.toString(), Map.of(), Providers.knownPrefixes());
            if (config.deployments().size() != DEPLOYMENTS) {
                throw new IllegalStateException("expected " + DEPLOYMENTS + " deployments, got " + config.deployments().size());
            }
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("the benchmark's config does not load", e);
        }
    }

    /**
     * Fills the signals as a busy minute leaves them (seeded, so every run sees the same):
     * <ul>
     *   <li>calls open on 70 % of the deployments, 1 to 7 each;</li>
     *   <li>usage this minute on 80 %, up to half of {@code rpm}/{@code tpm}, and 5
     *       deployments at their {@code tpm}, so the capacity check skips them;</li>
     *   <li>10 latency samples within the last {@code ttl} on 95 % of the deployments, 3 on
     *       the other 5 %, in both series (whole answers and streams), written by the
     *       {@link SignalRecorder} as the request path writes them, 30 s apart; one
     *       deployment has timed out once.</li>
     * </ul>
     */
    static void fill(RoutingSignals signals, List<Deployment> deployments, LatencyArgs latencyArgs) {
        SplittableRandom random = new SplittableRandom(42);
        UsageWindows usage = signals.usage();
        MovingClock sampleClock = new MovingClock();
        SignalRecorder recorder = new SignalRecorder(signals, latencyArgs, sampleClock);
        for (int i = 0; i < deployments.size(); i++) {
            Deployment d = deployments.get(i);
            String id = d.id();
            if (random.nextInt(10) < 7) {
                int open = 1 + random.nextInt(7);
                for (int k = 0; k < open; k++) {
                    signals.inFlight().started(id);
                }
            }
            int rpm = d.params().rpm().getAsInt();
            int tpm = d.params().tpm().getAsInt();
            if (i % 20 == 5) {
                usage.record(id, NOW.minusSeconds(20), rpm / 2, tpm);
            } else if (random.nextInt(10) < 8) {
                usage.record(id, NOW.minusSeconds(20), 1 + random.nextInt(rpm / 2), 1 + random.nextInt(tpm / 2));
            }
            int samples = i % 20 == 9 ? 3 : 10;
            double base = 0.004 + random.nextDouble() * 0.02;
            for (int k = samples; k > 0; k--) {
                sampleClock.now = NOW.minusSeconds(30L * k);
                if (i == 42 && k == 4) {
                    recorder.timedOut(d);
                    continue;
                }
                // A whole answer of 200 output tokens, and a stream's first event.
                double perToken = base * (0.8 + 0.4 * random.nextDouble());
                recorder.served(d, 0, Duration.ofNanos(Math.round(perToken * 200 * 1e9)), 200, false);
                recorder.served(d, 0, Duration.ofNanos(Math.round((0.2 + random.nextDouble()) * 1e9)), 0, true);
            }
        }
    }

    /** A clock the set-up moves by hand, to spread the latency samples over the past minutes. */
    static final class MovingClock extends Clock {
        Instant now = NOW;

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** A mutable copy, as the attempt loop collects the healthy deployments of a group. */
    static List<Deployment> asTheAttemptLoopHandsThem(List<Deployment> deployments) {
        return new ArrayList<>(deployments);
    }

    /** The group, its signals, and the strategy a subclass names. */
    public abstract static class Routing {
        List<Deployment> candidates;
        RoutingStrategy routing;

        void build(String strategy) {
            SluiceConfig config = config();
            candidates = asTheAttemptLoopHandsThem(config.deployments());
            RoutingSignals signals = RoutingSignals.inMemory();
            Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
            Strategies strategies = new Strategies(signals, new BundledModelCatalog(),
                    config.router().routingStrategyArgs(), clock, new ThreadLocalRandomSource());
            fill(signals, candidates, strategies.latencyArgs());
            routing = strategies.named(strategy);
            // A refusal would measure the error path: every strategy must choose here.
            for (RequestFacts request : List.of(REQUEST, STREAM_REQUEST)) {
                Pick pick = routing.pick(candidates, request);
                if (!(pick instanceof Pick.Chosen)) {
                    throw new IllegalStateException(strategy + " refused: " + pick);
                }
            }
        }
    }

    /** Each of the six strategies in turn. */
    @State(Scope.Benchmark)
    public static class StrategyState extends Routing {
        @Param({"simple-shuffle", "least-busy", "usage-based-routing", "usage-based-routing-v2",
                "latency-based-routing", "cost-based-routing"})
        public String strategy;

        @Setup
        public void setUp() {
            build(strategy);
        }
    }

    /**
     * Latency-based routing alone, for stream requests: the only strategy that reads
     * {@link RequestFacts#stream()} (it ranks them by a second series of samples).
     */
    @State(Scope.Benchmark)
    public static class LatencyStreamState extends Routing {
        @Setup
        public void setUp() {
            build(LatencyBasedStrategy.NAME);
        }
    }

    /** The group and the pre-call checks with {@code enable_pre_call_checks: true}. */
    @State(Scope.Benchmark)
    public static class ChecksState {
        List<Deployment> candidates;
        PreCallChecks checks;

        @Setup
        public void setUp() {
            SluiceConfig config = config();
            candidates = asTheAttemptLoopHandsThem(config.deployments());
            RoutingSignals signals = RoutingSignals.inMemory();
            ModelCatalog catalog = new BundledModelCatalog();
            checks = new PreCallChecks(config.router(), catalog, signals.cachePins(), Clock.fixed(NOW, ZoneOffset.UTC));
            Checked all = checks.check(candidates, REQUEST);
            Checked some = checks.check(candidates, LONG_REQUEST);
            if (all.kept().size() != DEPLOYMENTS || some.kept().size() != DEPLOYMENTS - 10) {
                throw new IllegalStateException("unexpected checks: kept " + all.kept().size() + " and "
                        + some.kept().size() + " of " + DEPLOYMENTS);
            }
        }
    }

    /** One strategy's pick among the 100 deployments. */
    @Benchmark
    public void pick(StrategyState s, Blackhole bh) {
        bh.consume(s.routing.pick(s.candidates, REQUEST));
    }

    /** Latency-based routing's pick among the 100 deployments for a stream request. */
    @Benchmark
    public void pickStreamLatencyBased(LatencyStreamState s, Blackhole bh) {
        bh.consume(s.routing.pick(s.candidates, STREAM_REQUEST));
    }

    /** The pre-call checks over the 100 deployments when the prompt fits every one. */
    @Benchmark
    public void preCallChecks(ChecksState s, Blackhole bh) {
        bh.consume(s.checks.check(s.candidates, REQUEST));
    }

    /** The pre-call checks when the prompt is too long for 10 of the 100 deployments. */
    @Benchmark
    public void preCallChecksDroppingTen(ChecksState s, Blackhole bh) {
        bh.consume(s.checks.check(s.candidates, LONG_REQUEST));
    }
}
