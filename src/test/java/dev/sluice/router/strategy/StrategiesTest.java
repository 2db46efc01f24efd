package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StrategiesTest {
    static final ModelCatalog NO_CATALOG = new ModelCatalog() {
        @Override
        public OptionalInt maxInputTokens(Deployment deployment) {
            return OptionalInt.empty();
        }

        @Override
        public Optional<Prices> prices(Deployment deployment) {
            return Optional.empty();
        }
    };

    final FakeClock clock = new FakeClock();
    final RoutingSignals signals = RoutingSignals.inMemory();

    private Strategies strategies(Map<String, Object> args) {
        return new Strategies(signals, NO_CATALOG, args, clock, new Random(1));
    }

    @Test
    void everyLitellmNameHasAStrategyOfThatName() {
        Strategies strategies = strategies(Map.of());

        assertThat(Strategies.NAMES).containsExactly("simple-shuffle", "least-busy", "usage-based-routing",
                "usage-based-routing-v2", "latency-based-routing", "cost-based-routing");
        for (String name : Strategies.NAMES) {
            assertThat(strategies.named(name).name()).isEqualTo(name);
        }
    }

    @Test
    void aNameGivesTheSameInstanceEveryTime() {
        Strategies strategies = strategies(Map.of());

        assertThat(strategies.named("least-busy")).isSameAs(strategies.named("least-busy"));
    }

    @Test
    void anUnknownNameIsRefusedListingTheKnownOnes() {
        assertThatThrownBy(() -> strategies(Map.of()).named("round-robin"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("routing_strategy: 'round-robin' (expected one of: simple-shuffle, least-busy, "
                        + "usage-based-routing, usage-based-routing-v2, latency-based-routing, cost-based-routing)");
    }

    @Test
    void aStrategyNamedPerRequestSeesTheCallsTheRecorderCounted() throws Exception {
        Strategies strategies = strategies(Map.of());
        List<Deployment> group = group("", "", "");
        SignalRecorder.Attempt stream = strategies.recorder().attemptStarted(group.get(1));

        assertThat(counts(strategies.named("least-busy"), group, request(10), 100)).containsOnlyKeys("d0", "d2");

        stream.end();
        assertThat(counts(strategies.named("least-busy"), group, request(10), 100)).containsOnlyKeys("d0", "d1", "d2");
    }

    @Test
    void aStrategyNamedPerRequestSeesTheLatencyTheRecorderMeasured() throws Exception {
        Strategies strategies = strategies(Map.of());
        List<Deployment> group = group("", "");
        strategies.recorder().timedOut(group.get(0));
        strategies.recorder().served(group.get(1), 100, Duration.ofSeconds(3), 10, false);

        assertThat(counts(strategies.named("latency-based-routing"), group, request(10), 20)).containsOnlyKeys("d1");
    }

    // --- routing_strategy_args ------------------------------------------------------------------

    @Test
    void withoutArgsLitellmsDefaultsApply() {
        assertThat(strategies(Map.of()).latencyArgs()).isEqualTo(new LatencyArgs(Duration.ofHours(1), 0, 10));
    }

    @Test
    void argsAreReadWithTheirConfigNames() {
        LatencyArgs args = strategies(Map.of("ttl", 90, "lowest_latency_buffer", 0.25, "max_latency_list_size", 20))
                .latencyArgs();

        assertThat(args).isEqualTo(new LatencyArgs(Duration.ofSeconds(90), 0.25, 20));
    }

    @Test
    void numbersWrittenAsTextAreRead() {
        // os.environ/NAME gives text.
        LatencyArgs args = strategies(Map.of("ttl", "1.5", "lowest_latency_buffer", "0", "max_latency_list_size", "5"))
                .latencyArgs();

        assertThat(args).isEqualTo(new LatencyArgs(Duration.ofMillis(1500), 0, 5));
    }

    @Test
    void aWholeNumberWrittenWithADecimalPointIsAListSize() {
        assertThat(strategies(Map.of("max_latency_list_size", 10.0)).latencyArgs().maxSamples()).isEqualTo(10);
    }

    @Test
    void argsOfOtherStrategiesAreLeftAlone() {
        assertThat(strategies(Map.of("some_other_arg", "x")).latencyArgs()).isEqualTo(LatencyArgs.DEFAULTS);
    }

    @Test
    void theBoundaryValuesAreAccepted() {
        LatencyArgs args = strategies(Map.of("ttl", 31_536_000, "lowest_latency_buffer", 0, "max_latency_list_size", 1000))
                .latencyArgs();

        assertThat(args).isEqualTo(new LatencyArgs(Duration.ofDays(365), 0, 1000));
        assertThat(strategies(Map.of("max_latency_list_size", 1)).latencyArgs().maxSamples()).isEqualTo(1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ttl                   | 0        | routing_strategy_args.ttl: 0 (expected: a number of seconds, > 0 and at most 31536000)
            ttl                   | -5       | routing_strategy_args.ttl: -5 (expected: a number of seconds, > 0 and at most 31536000)
            ttl                   | 31536001 | routing_strategy_args.ttl: 31536001 (expected: a number of seconds, > 0 and at most 31536000)
            ttl                   | text:an hour | routing_strategy_args.ttl: 'an hour' (expected: a number of seconds, > 0 and at most 31536000)
            lowest_latency_buffer | -0.1     | routing_strategy_args.lowest_latency_buffer: -0.1 (expected: a fraction >= 0, e.g. 0.5 for within 50% of the lowest)
            lowest_latency_buffer | text:half    | routing_strategy_args.lowest_latency_buffer: 'half' (expected: a fraction >= 0, e.g. 0.5 for within 50% of the lowest)
            max_latency_list_size | 0        | routing_strategy_args.max_latency_list_size: 0 (expected: a whole number from 1 to 1000)
            max_latency_list_size | 2.5      | routing_strategy_args.max_latency_list_size: 2.5 (expected: a whole number from 1 to 1000)
            max_latency_list_size | 1001     | routing_strategy_args.max_latency_list_size: 1001 (expected: a whole number from 1 to 1000)
            """)
    void aBadValueIsRefusedNamingTheArgTheValueAndTheRule(String key, String written, String message) {
        Object value = written.startsWith("text:") ? written.substring("text:".length()) : number(written);

        assertThatThrownBy(() -> strategies(Map.of(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void aValueOfTheWrongTypeIsRefused() {
        Map<String, Object> args = new HashMap<>();
        args.put("ttl", true);
        assertThatThrownBy(() -> strategies(args))
                .hasMessage("routing_strategy_args.ttl: true (expected: a number of seconds, > 0 and at most 31536000)");

        args.put("ttl", null);
        assertThatThrownBy(() -> strategies(args))
                .hasMessage("routing_strategy_args.ttl: null (expected: a number of seconds, > 0 and at most 31536000)");

        args.put("ttl", Double.NaN);
        assertThatThrownBy(() -> strategies(args))
                .hasMessage("routing_strategy_args.ttl: NaN (expected: a number of seconds, > 0 and at most 31536000)");
    }

    /** As the config reader gives numbers: an Integer when whole, else a Double. */
    private static Object number(String written) {
        return written.contains(".") ? (Object) Double.parseDouble(written) : (Object) Integer.parseInt(written);
    }
}
