package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.chosen;
import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static dev.sluice.router.strategy.Candidates.streamRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.InMemoryUsageWindows;
import dev.sluice.router.signals.RoutingSignals;
import dev.sluice.testing.FakeClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyBasedStrategyTest {
    static final Duration MS = Duration.ofMillis(1);

    final FakeClock clock = new FakeClock();
    final RoutingSignals signals = RoutingSignals.inMemory();

    private LatencyBasedStrategy strategy(LatencyArgs args, long seed) {
        return new LatencyBasedStrategy(signals.latency(), signals.usage(), args, clock, new Random(seed));
    }

    private LatencyBasedStrategy strategy(long seed) {
        return strategy(LatencyArgs.DEFAULTS, seed);
    }

    private SignalRecorder recorder(LatencyArgs args) {
        return new SignalRecorder(signals, args, clock);
    }

    /** A whole answer of one output token that took {@code seconds}: a sample of exactly that. */
    private void answered(Deployment d, double seconds) {
        recorder(LatencyArgs.DEFAULTS).served(d, 0, Duration.ofNanos(Math.round(seconds * 1e9)), 1, false);
    }

    @Test
    void routesAroundTheSlowDeployment() throws Exception {
        List<Deployment> group = group("", "", "");
        answered(group.get(0), 2.0);
        answered(group.get(1), 0.25);
        answered(group.get(2), 4.0);

        assertThat(counts(strategy(1), group, request(10), 20)).containsOnlyKeys("d1");
    }

    @Test
    void routesAroundADeploymentThatTimedOut() throws Exception {
        List<Deployment> group = group("", "");
        answered(group.get(0), 0.01);
        recorder(LatencyArgs.DEFAULTS).timedOut(group.get(0));
        answered(group.get(1), 30.0);

        assertThat(counts(strategy(2), group, request(10), 20)).containsOnlyKeys("d1");
        assertThat(counts(strategy(2), group, streamRequest(), 20)).containsOnlyKeys("d1");
    }

    @Test
    void theAverageOfTheRecentSamplesDecides() throws Exception {
        List<Deployment> group = group("", "");
        answered(group.get(0), 0.5);
        answered(group.get(0), 3.5);
        answered(group.get(1), 2.5);

        // d0's last sample is its fastest, but its average (2.0) is what counts.
        assertThat(chosen(strategy(3).pick(group, request(10)))).isEqualTo("d0");
        answered(group.get(1), 0.5);
        assertThat(chosen(strategy(3).pick(group, request(10)))).isEqualTo("d1");
    }

    @Test
    void deploymentsWithoutSamplesAreExploredFirst() throws Exception {
        List<Deployment> group = group("", "", "");
        answered(group.get(0), 0.001);

        Map<String, Integer> counts = counts(strategy(4), group, request(10), 400);

        assertThat(counts).containsOnlyKeys("d1", "d2");
        assertThat(counts.get("d1")).isBetween(150, 250);
    }

    @Test
    void onceEveryDeploymentHasASampleTheFastestWins() throws Exception {
        List<Deployment> group = group("", "");
        LatencyBasedStrategy strategy = strategy(5);

        String first = chosen(strategy.pick(group, request(10)));
        answered(group.stream().filter(d -> d.id().equals(first)).findFirst().orElseThrow(), 1.0);
        String second = chosen(strategy.pick(group, request(10)));
        answered(group.stream().filter(d -> d.id().equals(second)).findFirst().orElseThrow(), 3.0);

        assertThat(second).isNotEqualTo(first);
        assertThat(counts(strategy, group, request(10), 10)).containsOnlyKeys(first);
    }

    @Test
    void aSampleStillCountsExactlyTtlAfterItWasTaken() throws Exception {
        LatencyArgs args = new LatencyArgs(Duration.ofSeconds(60), 0, 10);
        List<Deployment> group = group("", "");
        answered(group.get(0), 9.0);
        clock.advance(Duration.ofSeconds(30));
        answered(group.get(1), 1.0);

        clock.advance(Duration.ofSeconds(30));

        assertThat(counts(strategy(args, 6), group, request(10), 20)).containsOnlyKeys("d1");
    }

    @Test
    void aSampleOlderThanTtlIsForgottenSoTheDeploymentIsExploredAgain() throws Exception {
        LatencyArgs args = new LatencyArgs(Duration.ofSeconds(60), 0, 10);
        List<Deployment> group = group("", "");
        answered(group.get(0), 9.0);
        clock.advance(Duration.ofSeconds(30));
        answered(group.get(1), 1.0);

        clock.advance(Duration.ofSeconds(30).plus(MS));

        assertThat(counts(strategy(args, 7), group, request(10), 20)).containsOnlyKeys("d0");
    }

    @Test
    void aDeploymentExactlyAtTheBufferEdgeSharesTheTraffic() throws Exception {
        LatencyArgs args = new LatencyArgs(Duration.ofHours(1), 0.5, 10);
        List<Deployment> group = group("", "", "");
        answered(group.get(0), 1.0);
        answered(group.get(1), 1.5);
        answered(group.get(2), 1.75);

        Map<String, Integer> counts = counts(strategy(args, 8), group, request(10), 400);

        assertThat(counts).containsOnlyKeys("d0", "d1");
        assertThat(counts.get("d0")).isBetween(150, 250);
    }

    @Test
    void aDeploymentJustOutsideTheBufferIsNotChosen() throws Exception {
        LatencyArgs args = new LatencyArgs(Duration.ofHours(1), 0.5, 10);
        List<Deployment> group = group("", "");
        answered(group.get(0), 1.0);
        // The next sample up from 1.5 s that a Duration can hold.
        answered(group.get(1), 1.500000001);

        assertThat(counts(strategy(args, 9), group, request(10), 100)).containsOnlyKeys("d0");
    }

    @Test
    void withoutABufferOnlyTheLowestIsChosen() throws Exception {
        List<Deployment> group = group("", "");
        answered(group.get(0), 1.0);
        answered(group.get(1), 1.001);

        assertThat(counts(strategy(10), group, request(10), 100)).containsOnlyKeys("d0");
    }

    @Test
    void aStreamIsRankedByTimeToFirstEvent() throws Exception {
        List<Deployment> group = group("", "");
        SignalRecorder recorder = recorder(LatencyArgs.DEFAULTS);
        // d0 answers whole requests faster per token, but d1 starts its streams sooner.
        recorder.served(group.get(0), 0, Duration.ofSeconds(10), 1000, false);
        recorder.served(group.get(1), 0, Duration.ofSeconds(40), 1000, false);
        recorder.served(group.get(0), 0, Duration.ofMillis(900), 0, true);
        recorder.served(group.get(1), 0, Duration.ofMillis(200), 0, true);

        assertThat(counts(strategy(11), group, request(10), 20)).containsOnlyKeys("d0");
        assertThat(counts(strategy(11), group, streamRequest(), 20)).containsOnlyKeys("d1");
    }

    @Test
    void aDeploymentWithoutStreamSamplesIsExploredByTheFirstStream() throws Exception {
        List<Deployment> group = group("", "");
        answered(group.get(0), 0.01);
        answered(group.get(1), 0.02);
        recorder(LatencyArgs.DEFAULTS).served(group.get(0), 0, Duration.ofMillis(200), 0, true);

        assertThat(counts(strategy(12), group, streamRequest(), 10)).containsOnlyKeys("d1");
    }

    @Test
    void aZeroSecondAverageIsAValidLowest() throws Exception {
        LatencyArgs args = new LatencyArgs(Duration.ofHours(1), 0.5, 10);
        List<Deployment> group = group("", "");
        answered(group.get(0), 0);
        answered(group.get(1), 0.001);

        assertThat(counts(strategy(args, 13), group, request(10), 20)).containsOnlyKeys("d0");
    }

    @Test
    void aDeploymentOverItsLimitIsSkippedHoweverFast() throws Exception {
        List<Deployment> group = group("rpm: 1", "");
        answered(group.get(0), 0.01);
        answered(group.get(1), 5.0);
        ((InMemoryUsageWindows) signals.usage()).record("d0", clock.instant(), 1, 0);

        assertThat(chosen(strategy(14).pick(group, request(10)))).isEqualTo("d1");
    }

    @Test
    void whenNoneHasRoomItRefuses() throws Exception {
        List<Deployment> group = group("tpm: 5");

        assertThat(strategy(15).pick(group, request(6))).isEqualTo(new Pick.NoCapacity(
                "model group 'g' has no deployment with room for this request this minute: "
                        + "deployment 'd0': 0 + 6 tokens > tpm 5"));
    }
}
