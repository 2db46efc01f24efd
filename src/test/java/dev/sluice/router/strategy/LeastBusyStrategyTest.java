package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.chosen;
import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Deployment;
import dev.sluice.router.signals.InMemoryInFlightCounts;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LeastBusyStrategyTest {
    final InMemoryInFlightCounts inFlight = new InMemoryInFlightCounts();

    private LeastBusyStrategy strategy(long seed) {
        return new LeastBusyStrategy(inFlight, new Random(seed));
    }

    private void open(String id, int calls) {
        for (int i = 0; i < calls; i++) {
            inFlight.started(id);
        }
    }

    @Test
    void avoidsTheDeploymentHoldingAnOpenCall() throws Exception {
        List<Deployment> group = group("", "", "", "");
        open("d2", 1);

        Map<String, Integer> counts = counts(strategy(1), group, request(10), 300);

        assertThat(counts).containsOnlyKeys("d0", "d1", "d3");
    }

    @Test
    void picksTheFewestOpenCalls() throws Exception {
        List<Deployment> group = group("", "", "");
        open("d0", 3);
        open("d1", 1);
        open("d2", 2);

        assertThat(counts(strategy(2), group, request(10), 50)).containsOnlyKeys("d1");
    }

    @Test
    void aCallThatEndedNoLongerCounts() throws Exception {
        List<Deployment> group = group("", "");
        open("d0", 1);
        open("d1", 2);
        inFlight.ended("d1");
        inFlight.ended("d1");

        assertThat(counts(strategy(3), group, request(10), 50)).containsOnlyKeys("d1");
    }

    @Test
    void tiesAreBrokenAtRandomNotByListOrder() throws Exception {
        List<Deployment> group = group("", "", "");

        Map<String, Integer> counts = counts(strategy(4), group, request(10), 3000);

        assertThat(counts).containsOnlyKeys("d0", "d1", "d2");
        assertThat(counts.values()).allSatisfy(c -> assertThat(c).isBetween(900, 1100));
    }

    @Test
    void theSameSeedMakesTheSamePicks() throws Exception {
        List<Deployment> group = group("", "", "");
        LeastBusyStrategy a = strategy(5);
        LeastBusyStrategy b = strategy(5);

        for (int i = 0; i < 50; i++) {
            assertThat(chosen(a.pick(group, request(10)))).isEqualTo(chosen(b.pick(group, request(10))));
        }
    }

    @Test
    void anIdleBackupIsNotChosenWhileAPrimaryIsAvailableHoweverBusy() throws Exception {
        List<Deployment> group = group("weight: 1", "weight: 0");
        open("d0", 5);

        assertThat(counts(strategy(6), group, request(10), 50)).containsOnlyKeys("d0");
    }

    @Test
    void aDeploymentWithoutAWeightIsAPrimary() throws Exception {
        List<Deployment> group = group("", "weight: 0");
        open("d0", 1);

        assertThat(counts(strategy(7), group, request(10), 50)).containsOnlyKeys("d0");
    }

    @Test
    void backupsAreChosenByTheirOwnCountsWhenNothingElseIsOffered() throws Exception {
        List<Deployment> group = group("weight: 0", "weight: 0");
        open("d0", 1);

        assertThat(counts(strategy(8), group, request(10), 50)).containsOnlyKeys("d1");
    }
}
