package dev.sluice.state;

import dev.sluice.testing.Concurrently;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryLatencySamplesTest {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    static final Duration TTL = Duration.ofSeconds(3600);
    static final Duration MS = Duration.ofMillis(1);

    final InMemoryLatencySamples samples = new InMemoryLatencySamples();

    @Test
    void aDeploymentWithoutSamplesHasAnEmptyList() {
        assertThat(samples.recent("a", T0, TTL)).isEmpty();
    }

    @Test
    void samplesComeBackOldestFirstPerDeployment() {
        samples.add("a", T0, 1.0, 10);
        samples.add("a", T0.plusSeconds(1), 2.0, 10);
        samples.add("b", T0, 9.0, 10);

        assertThat(samples.recent("a", T0.plusSeconds(2), TTL)).containsExactly(1.0, 2.0);
        assertThat(samples.recent("b", T0.plusSeconds(2), TTL)).containsExactly(9.0);
    }

    @Test
    void exactlyMaxSamplesAreAllKept() {
        for (int i = 1; i <= 10; i++) {
            samples.add("a", T0, i, 10);
        }

        assertThat(samples.recent("a", T0, TTL)).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
    }

    @Test
    void oneMoreThanMaxSamplesPushesTheOldestOut() {
        for (int i = 1; i <= 11; i++) {
            samples.add("a", T0, i, 10);
        }

        assertThat(samples.recent("a", T0, TTL)).containsExactly(2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0);
    }

    @Test
    void aSmallerMaxTrimsToTheNewest() {
        for (int i = 1; i <= 5; i++) {
            samples.add("a", T0, i, 10);
        }
        samples.add("a", T0, 6, 2);

        assertThat(samples.recent("a", T0, TTL)).containsExactly(5.0, 6.0);
    }

    @Test
    void aMaxOfOneKeepsOnlyTheLatest() {
        samples.add("a", T0, 1, 1);
        samples.add("a", T0, 2, 1);

        assertThat(samples.recent("a", T0, TTL)).containsExactly(2.0);
    }

    @Test
    void aSampleIsStillRecentExactlyTtlAfterItWasTaken() {
        samples.add("a", T0, 1.5, 10);

        assertThat(samples.recent("a", T0.plus(TTL), TTL)).containsExactly(1.5);
    }

    @Test
    void aSampleExpiresOneMillisecondAfterItsTtl() {
        samples.add("a", T0, 1.5, 10);
        samples.add("a", T0.plusSeconds(10), 2.5, 10);

        assertThat(samples.recent("a", T0.plus(TTL).plus(MS), TTL)).containsExactly(2.5);
    }

    @Test
    void aMaxBelowOneIsRefused() {
        assertThatThrownBy(() -> samples.add("a", T0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxSamples: 0 (expected: >= 1)");
    }

    @Test
    void theReturnedListIsASnapshot() {
        samples.add("a", T0, 1, 10);
        List<Double> before = samples.recent("a", T0, TTL);
        samples.add("a", T0, 2, 10);

        assertThat(before).containsExactly(1.0);
    }

    @Test
    void samplesFromManyThreadsAreAllKeptUpToTheBound() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 100; i++) {
                samples.add("a", T0, thread, 1000);
                samples.add("b", T0, thread, 10);
            }
        });

        List<Double> a = samples.recent("a", T0, TTL);
        assertThat(a).hasSize(800);
        for (int thread = 0; thread < 8; thread++) {
            double value = thread;
            assertThat(a).filteredOn(v -> v == value).hasSize(100);
        }
        assertThat(samples.recent("b", T0, TTL)).hasSize(10);
    }

    @Test
    void theAverageOfADeploymentWithoutSamplesIsEmpty() {
        assertThat(samples.average("a", T0, TTL)).isEmpty();
    }

    @Test
    void theAverageIsTheMeanOfTheRecentSamples() {
        samples.add("a", T0, 1.0, 10);
        samples.add("a", T0.plusSeconds(1), 2.0, 10);
        samples.add("a", T0.plusSeconds(2), 6.0, 10);
        samples.add("b", T0, 100.0, 10);

        assertThat(samples.average("a", T0.plusSeconds(2), TTL)).hasValue(3.0);
    }

    @Test
    void theAverageCountsOnlyTheSamplesKept() {
        for (int i = 1; i <= 12; i++) {
            samples.add("a", T0, i, 10);
        }

        assertThat(samples.average("a", T0, TTL)).hasValue(7.5);
    }

    @Test
    void theAverageLeavesOutExpiredSamplesAtTheSameBoundaryAsRecent() {
        samples.add("a", T0, 1.0, 10);
        samples.add("a", T0.plus(MS), 3.0, 10);

        assertThat(samples.average("a", T0.plus(TTL), TTL)).hasValue(2.0);
        assertThat(samples.average("a", T0.plus(TTL).plus(MS), TTL)).hasValue(3.0);
        assertThat(samples.average("a", T0.plus(TTL).plus(MS).plusNanos(1), TTL)).isEmpty();
    }

    @Test
    void aSampleAddedOutOfTimeOrderLeavesTheAverageWhenItExpires() {
        samples.add("a", T0.plusSeconds(10), 2.0, 10);
        samples.add("a", T0, 10.0, 10);
        samples.add("a", T0.plusSeconds(20), 3.0, 10);

        assertThat(samples.average("a", T0.plus(TTL), TTL)).hasValue(5.0);
        assertThat(samples.average("a", T0.plus(TTL).plusSeconds(5), TTL)).hasValue(2.5);
        assertThat(samples.recent("a", T0.plus(TTL).plusSeconds(5), TTL)).containsExactly(2.0, 3.0);
    }

    @Test
    void theAverageOfExpiredSamplesOnlyIsEmptyNotADivisionByZero() {
        samples.add("a", T0, 1.0, 10);

        assertThat(samples.average("a", T0.plus(TTL).plusNanos(1), TTL)).isEmpty();
    }

    @Test
    void theAverageIsWhatTheInterfaceWorksOutFromRecent() {
        for (int i = 0; i < 10; i++) {
            samples.add("a", T0.plusMillis(337L * i), 0.1 * (i + 1) + 1e-9 * i, 10);
        }
        LatencySamples viaRecent = new LatencySamples() {
            @Override
            public void add(String deploymentId, Instant at, double seconds, int maxSamples) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<Double> recent(String deploymentId, Instant now, Duration ttl) {
                return samples.recent(deploymentId, now, ttl);
            }
        };

        for (Instant now : List.of(T0.plusSeconds(3), T0.plus(TTL), T0.plus(TTL).plusMillis(1000))) {
            assertThat(samples.average("a", now, TTL)).isEqualTo(viaRecent.average("a", now, TTL));
        }
        assertThat(viaRecent.average("none", T0, TTL)).isEmpty();
    }
}
