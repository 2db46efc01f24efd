package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.chosen;
import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.catalog.BundledModelCatalog;
import dev.sluice.catalog.ModelCatalog;
import dev.sluice.config.Deployment;
import dev.sluice.router.signals.InMemoryUsageWindows;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CostBasedStrategyTest {
    final FakeClock clock = new FakeClock();
    final InMemoryUsageWindows usage = new InMemoryUsageWindows();

    /** Prices by deployment id, in dollars per input and per output token. */
    record PriceList(Map<String, ModelCatalog.Prices> byId) implements ModelCatalog {
        @Override
        public OptionalInt maxInputTokens(Deployment deployment) {
            return OptionalInt.empty();
        }

        @Override
        public Optional<Prices> prices(Deployment deployment) {
            return Optional.ofNullable(byId.get(deployment.id()));
        }
    }

    static ModelCatalog.Prices price(double input, double output) {
        return new ModelCatalog.Prices(input, output);
    }

    private CostBasedStrategy strategy(Map<String, ModelCatalog.Prices> prices, long seed) {
        return new CostBasedStrategy(new PriceList(prices), usage, clock, new Random(seed));
    }

    @Test
    void picksTheCheapestOfThree() throws Exception {
        List<Deployment> group = group("", "", "");
        CostBasedStrategy strategy = strategy(Map.of(
                "d0", price(5e-6, 15e-6),
                "d1", price(0.15e-6, 0.6e-6),
                "d2", price(2.5e-6, 10e-6)), 1);

        assertThat(counts(strategy, group, request(10), 20)).containsOnlyKeys("d1");
    }

    @Test
    void theSumOfInputAndOutputPricesDecides() throws Exception {
        List<Deployment> group = group("", "");
        // d0 is cheaper to read, d1 cheaper in total.
        CostBasedStrategy strategy = strategy(Map.of(
                "d0", price(1e-6, 10e-6),
                "d1", price(3e-6, 4e-6)), 2);

        assertThat(chosen(strategy.pick(group, request(10)))).isEqualTo("d1");
    }

    @Test
    void skipsTheCheapestWhenItIsOverItsLimitThisMinute() throws Exception {
        List<Deployment> group = group("", "tpm: 1000", "");
        usage.record("d1", clock.instant(), 1, 901);
        CostBasedStrategy strategy = strategy(Map.of(
                "d0", price(5e-6, 15e-6),
                "d1", price(0.15e-6, 0.6e-6),
                "d2", price(2.5e-6, 10e-6)), 3);

        assertThat(chosen(strategy.pick(group, request(100)))).isEqualTo("d2");
        assertThat(chosen(strategy.pick(group, request(99)))).isEqualTo("d1");
    }

    @Test
    void theCheapestIsBackOnceItsMinuteIsOver() throws Exception {
        List<Deployment> group = group("rpm: 1", "");
        usage.record("d0", clock.instant(), 1, 0);
        CostBasedStrategy strategy = strategy(Map.of("d0", price(1e-6, 1e-6), "d1", price(2e-6, 2e-6)), 4);

        assertThat(chosen(strategy.pick(group, request(1)))).isEqualTo("d1");

        clock.advance(Duration.ofSeconds(60));
        assertThat(chosen(strategy.pick(group, request(1)))).isEqualTo("d0");
    }

    @Test
    void anUnknownPriceSortsAfterEveryKnownOne() throws Exception {
        List<Deployment> group = group("", "", "");
        CostBasedStrategy strategy = strategy(Map.of("d1", price(100, 100)), 5);

        assertThat(counts(strategy, group, request(10), 20)).containsOnlyKeys("d1");
    }

    @Test
    void deploymentsOfUnknownPriceShareTheTrafficWhenNoPriceIsKnown() throws Exception {
        List<Deployment> group = group("", "");
        CostBasedStrategy strategy = strategy(Map.of(), 6);

        assertThat(counts(strategy, group, request(10), 200).values())
                .allSatisfy(c -> assertThat(c).isBetween(70, 130));
    }

    @Test
    void equalPricesAreBrokenAtRandom() throws Exception {
        List<Deployment> group = group("", "", "");
        CostBasedStrategy strategy = strategy(Map.of(
                "d0", price(1e-6, 2e-6),
                "d1", price(1e-6, 2e-6),
                "d2", price(5e-6, 2e-6)), 7);

        Map<String, Integer> counts = counts(strategy, group, request(10), 2000);

        assertThat(counts).containsOnlyKeys("d0", "d1");
        assertThat(counts.get("d0")).isBetween(900, 1100);
    }

    @Test
    void theCatalogIsAskedOnceForEachDeploymentHoweverManyPicks() throws Exception {
        List<Deployment> group = group("", "", "");
        Map<String, Integer> asked = new TreeMap<>();
        ModelCatalog prices = new PriceList(Map.of("d0", price(3e-6, 3e-6), "d1", price(1e-6, 1e-6)));
        ModelCatalog counting = new ModelCatalog() {
            @Override
            public OptionalInt maxInputTokens(Deployment deployment) {
                return prices.maxInputTokens(deployment);
            }

            @Override
            public Optional<Prices> prices(Deployment deployment) {
                asked.merge(deployment.id(), 1, Integer::sum);
                return prices.prices(deployment);
            }
        };
        CostBasedStrategy strategy = new CostBasedStrategy(counting, usage, clock, new Random(9));

        assertThat(counts(strategy, group, request(10), 50)).containsOnlyKeys("d1");
        assertThat(asked).isEqualTo(Map.of("d0", 1, "d1", 1, "d2", 1));
    }

    @Test
    void aDeploymentAddedUnderAKnownIdIsPricedByItsOwnConfig() throws Exception {
        CostBasedStrategy strategy = new CostBasedStrategy(new BundledModelCatalog(), usage, clock, new Random(10));
        List<Deployment> before = group(
                "input_cost_per_token: 1e-6, output_cost_per_token: 1e-6",
                "input_cost_per_token: 2e-6, output_cost_per_token: 2e-6");
        assertThat(counts(strategy, before, request(10), 10)).containsOnlyKeys("d0");

        // The same ids, as a deployment removed and added again at run time: d0 now costs more.
        List<Deployment> after = group(
                "input_cost_per_token: 3e-6, output_cost_per_token: 3e-6",
                "input_cost_per_token: 2e-6, output_cost_per_token: 2e-6");

        assertThat(counts(strategy, after, request(10), 10)).containsOnlyKeys("d1");
        assertThat(counts(strategy, before, request(10), 10)).containsOnlyKeys("d0");
    }

    @Test
    void aDeploymentAddedToTheGroupIsPricedFromTheFirstPick() throws Exception {
        CostBasedStrategy strategy = new CostBasedStrategy(new BundledModelCatalog(), usage, clock, new Random(11));
        List<Deployment> three = group(
                "input_cost_per_token: 2e-6, output_cost_per_token: 2e-6",
                "input_cost_per_token: 3e-6, output_cost_per_token: 3e-6",
                "input_cost_per_token: 1e-6, output_cost_per_token: 1e-6");
        List<Deployment> two = three.subList(0, 2);
        assertThat(counts(strategy, two, request(10), 10)).containsOnlyKeys("d0");

        assertThat(counts(strategy, three, request(10), 10)).containsOnlyKeys("d2");
    }

    @Test
    void whenNoneFitsItRefusesNamingTheLimits() throws Exception {
        List<Deployment> group = group("tpm: 100", "rpm: 2");
        usage.record("d0", clock.instant(), 1, 100);
        usage.record("d1", clock.instant(), 2, 0);
        CostBasedStrategy strategy = strategy(Map.of(), 8);

        assertThat(strategy.pick(group, request(1))).isEqualTo(new Pick.NoCapacity(
                "model group 'g' has no deployment with room for this request this minute: "
                        + "deployment 'd0': 100 + 1 tokens > tpm 100; deployment 'd1': 2 + 1 requests > rpm 2"));
        assertThat(strategy.name()).isEqualTo("cost-based-routing");
    }
}
