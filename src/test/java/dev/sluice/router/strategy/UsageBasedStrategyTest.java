package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.chosen;
import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.InMemoryUsageWindows;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UsageBasedStrategyTest {
    static final Duration MS = Duration.ofMillis(1);

    /** Starts at a calendar minute's first instant. */
    final FakeClock clock = new FakeClock();
    final InMemoryUsageWindows usage = new InMemoryUsageWindows();

    private UsageBasedStrategy strategy(long seed) {
        return new UsageBasedStrategy(UsageBasedStrategy.NAME_V2, usage, clock, new Random(seed));
    }

    private void used(String id, int requests, long tokens) {
        usage.record(id, clock.instant(), requests, tokens);
    }

    // --- tpm ----------------------------------------------------------------------------------

    @Test
    void aRequestThatBringsTheMinuteExactlyToTpmFits() throws Exception {
        List<Deployment> group = group("tpm: 10000", "tpm: 100000");
        used("d0", 1, 9600);
        used("d1", 1, 9700);

        assertThat(chosen(strategy(1).pick(group, request(400)))).isEqualTo("d0");
    }

    @Test
    void aRequestOneTokenOverTpmDoesNotFit() throws Exception {
        List<Deployment> group = group("tpm: 10000", "tpm: 100000");
        used("d0", 1, 9601);
        used("d1", 1, 50_000);

        assertThat(chosen(strategy(2).pick(group, request(400)))).isEqualTo("d1");
    }

    @Test
    void aPromptLargerThanTpmNeverFitsEvenWhenIdle() throws Exception {
        List<Deployment> group = group("tpm: 100", "");

        assertThat(counts(strategy(3), group, request(101), 20)).containsOnlyKeys("d1");
    }

    // --- rpm ----------------------------------------------------------------------------------

    @Test
    void theRequestThatReachesRpmFits() throws Exception {
        List<Deployment> group = group("rpm: 60", "rpm: 1000");
        used("d0", 59, 0);
        used("d1", 59, 10);

        assertThat(chosen(strategy(4).pick(group, request(1)))).isEqualTo("d0");
    }

    @Test
    void theRequestAfterRpmDoesNotFit() throws Exception {
        List<Deployment> group = group("rpm: 60", "rpm: 1000");
        used("d0", 60, 0);
        used("d1", 60, 10);

        assertThat(chosen(strategy(5).pick(group, request(1)))).isEqualTo("d1");
    }

    // --- the minute -----------------------------------------------------------------------------

    @Test
    void aFullDeploymentStaysSkippedUntilTheLastMillisecondOfTheMinute() throws Exception {
        List<Deployment> group = group("tpm: 1000", "tpm: 100000");
        used("d0", 1, 1000);
        used("d1", 1, 5000);

        clock.advance(Duration.ofSeconds(60).minus(MS));

        assertThat(chosen(strategy(6).pick(group, request(1)))).isEqualTo("d1");
    }

    @Test
    void aFullDeploymentFitsAgainExactlyAtTheNextMinute() throws Exception {
        List<Deployment> group = group("tpm: 1000", "tpm: 100000");
        used("d0", 1, 1000);
        used("d1", 1, 5000);

        clock.advance(Duration.ofSeconds(60));

        // Both are back at zero: the tie is broken at random, and d0 takes its share.
        assertThat(counts(strategy(7), group, request(1), 100)).containsOnlyKeys("d0", "d1");
    }

    // --- choosing among those that fit --------------------------------------------------------------

    @Test
    void picksTheDeploymentThatUsedTheFewestTokensThisMinute() throws Exception {
        List<Deployment> group = group("", "", "");
        used("d0", 1, 300);
        used("d1", 5, 200);
        used("d2", 1, 250);

        assertThat(counts(strategy(8), group, request(10), 20)).containsOnlyKeys("d1");
    }

    @Test
    void tiesAreBrokenAtRandom() throws Exception {
        List<Deployment> group = group("tpm: 1000", "tpm: 1000", "tpm: 1000");

        Map<String, Integer> counts = counts(strategy(9), group, request(10), 3000);

        assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(900, 1100));
    }

    @Test
    void deploymentsWithoutLimitsAlwaysFit() throws Exception {
        List<Deployment> group = group("", "tpm: 10");
        used("d0", 1_000_000, 1_000_000_000);

        assertThat(counts(strategy(10), group, request(11), 20)).containsOnlyKeys("d0");
    }

    // --- refusing -------------------------------------------------------------------------------

    @Test
    void whenNoneFitsTheRefusalNamesEachDeploymentsUsageAndLimit() throws Exception {
        List<Deployment> group = group("tpm: 10000", "rpm: 60", "tpm: 500, rpm: 3");
        used("d0", 1, 9800);
        used("d1", 60, 10);
        used("d2", 3, 200);

        Pick pick = strategy(11).pick(group, request(400));

        assertThat(pick).isEqualTo(new Pick.NoCapacity(
                "model group 'g' has no deployment with room for this request this minute: "
                        + "deployment 'd0': 9800 + 400 tokens > tpm 10000; "
                        + "deployment 'd1': 60 + 1 requests > rpm 60; "
                        + "deployment 'd2': 200 + 400 tokens > tpm 500, 3 + 1 requests > rpm 3"));
    }

    // --- names ----------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"usage-based-routing", "usage-based-routing-v2"})
    void bothNamesRouteTheSameWay(String name) throws Exception {
        List<Deployment> group = group("tpm: 1000", "tpm: 1000");
        used("d0", 1, 1000);
        UsageBasedStrategy strategy = new UsageBasedStrategy(name, usage, clock, new Random(12));

        assertThat(strategy.name()).isEqualTo(name);
        assertThat(counts(strategy, group, request(1), 20)).containsOnlyKeys("d1");
    }

    @Test
    void anotherNameIsRefused() {
        assertThatThrownBy(() -> new UsageBasedStrategy("usage-based-routing-v3", usage, clock, new Random(13)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name: 'usage-based-routing-v3' (expected: usage-based-routing or usage-based-routing-v2)");
    }
}
