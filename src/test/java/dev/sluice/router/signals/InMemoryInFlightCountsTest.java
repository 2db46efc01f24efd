package dev.sluice.router.signals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Concurrently;
import org.junit.jupiter.api.Test;

class InMemoryInFlightCountsTest {
    final InMemoryInFlightCounts counts = new InMemoryInFlightCounts();

    @Test
    void aDeploymentNeverStartedHasNothingOpen() {
        assertThat(counts.count("a")).isZero();
    }

    @Test
    void startsAndEndsAreCountedPerDeployment() {
        counts.started("a");
        counts.started("a");
        counts.started("b");
        counts.ended("a");

        assertThat(counts.count("a")).isEqualTo(1);
        assertThat(counts.count("b")).isEqualTo(1);
    }

    @Test
    void theLastEndBringsTheCountBackToZeroAndANewStartCountsFromThere() {
        counts.started("a");
        counts.ended("a");

        assertThat(counts.count("a")).isZero();

        counts.started("a");
        assertThat(counts.count("a")).isEqualTo(1);
    }

    @Test
    void anEndWithoutAStartNeverMakesTheCountNegative() {
        counts.ended("a");
        counts.started("a");

        assertThat(counts.count("a")).isEqualTo(1);
    }

    @Test
    void startsFromManyThreadsAddUp() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 10_000; i++) {
                counts.started("a");
            }
        });

        assertThat(counts.count("a")).isEqualTo(80_000);
    }

    @Test
    void startsAndEndsInterleavedFromManyThreadsCancelOut() throws Exception {
        counts.started("a");
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 10_000; i++) {
                counts.started("a");
                counts.ended("a");
            }
        });

        assertThat(counts.count("a")).isEqualTo(1);
    }
}
