package dev.sluice.router.signals;

import static dev.sluice.router.signals.LatencySeries.FIRST_EVENT;
import static dev.sluice.router.signals.LatencySeries.PER_OUTPUT_TOKEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Concurrently;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class InMemoryLatencySamplesTest {
    static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    static final Duration TTL = Duration.ofSeconds(3600);
    static final Duration MS = Duration.ofMillis(1);

    final InMemoryLatencySamples samples = new InMemoryLatencySamples();

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void aDeploymentWithoutSamplesHasAnEmptyList(LatencySeries series) {
        assertThat(samples.recent("a", series, T0, TTL)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void samplesComeBackOldestFirstPerDeployment(LatencySeries series) {
        samples.add("a", series, T0, 1.0, 10);
        samples.add("a", series, T0.plusSeconds(1), 2.0, 10);
        samples.add("b", series, T0, 9.0, 10);

        assertThat(samples.recent("a", series, T0.plusSeconds(2), TTL)).containsExactly(1.0, 2.0);
        assertThat(samples.recent("b", series, T0.plusSeconds(2), TTL)).containsExactly(9.0);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void exactlyMaxSamplesAreAllKept(LatencySeries series) {
        for (int i = 1; i <= 10; i++) {
            samples.add("a", series, T0, i, 10);
        }

        assertThat(samples.recent("a", series, T0, TTL))
                .containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void oneMoreThanMaxSamplesPushesTheOldestOut(LatencySeries series) {
        for (int i = 1; i <= 11; i++) {
            samples.add("a", series, T0, i, 10);
        }

        assertThat(samples.recent("a", series, T0, TTL))
                .containsExactly(2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void aSmallerMaxTrimsToTheNewest(LatencySeries series) {
        for (int i = 1; i <= 5; i++) {
            samples.add("a", series, T0, i, 10);
        }
        samples.add("a", series, T0, 6, 2);

        assertThat(samples.recent("a", series, T0, TTL)).containsExactly(5.0, 6.0);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void aMaxOfOneKeepsOnlyTheLatest(LatencySeries series) {
        samples.add("a", series, T0, 1, 1);
        samples.add("a", series, T0, 2, 1);

        assertThat(samples.recent("a", series, T0, TTL)).containsExactly(2.0);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void aSampleIsStillRecentExactlyTtlAfterItWasTaken(LatencySeries series) {
        samples.add("a", series, T0, 1.5, 10);

        assertThat(samples.recent("a", series, T0.plus(TTL), TTL)).containsExactly(1.5);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void aSampleExpiresOneMillisecondAfterItsTtl(LatencySeries series) {
        samples.add("a", series, T0, 1.5, 10);
        samples.add("a", series, T0.plusSeconds(10), 2.5, 10);

        assertThat(samples.recent("a", series, T0.plus(TTL).plus(MS), TTL)).containsExactly(2.5);
    }

    @Test
    void aMaxBelowOneIsRefused() {
        assertThatThrownBy(() -> samples.add("a", PER_OUTPUT_TOKEN, T0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxSamples: 0 (expected: >= 1)");
        assertThatThrownBy(() -> samples.add("a", FIRST_EVENT, T0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxSamples: 0 (expected: >= 1)");
    }

    @Test
    void theReturnedListIsASnapshot() {
        samples.add("a", PER_OUTPUT_TOKEN, T0, 1, 10);
        List<Double> before = samples.recent("a", PER_OUTPUT_TOKEN, T0, TTL);
        samples.add("a", PER_OUTPUT_TOKEN, T0, 2, 10);
        samples.add("a", FIRST_EVENT, T0, 3, 10);

        assertThat(before).containsExactly(1.0);
    }

    @Test
    void samplesFromManyThreadsAreAllKeptUpToTheBound() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 100; i++) {
                samples.add("a", PER_OUTPUT_TOKEN, T0, thread, 1000);
                samples.add("b", PER_OUTPUT_TOKEN, T0, thread, 10);
            }
        });

        List<Double> a = samples.recent("a", PER_OUTPUT_TOKEN, T0, TTL);
        assertThat(a).hasSize(800);
        for (int thread = 0; thread < 8; thread++) {
            double value = thread;
            assertThat(a).filteredOn(v -> v == value).hasSize(100);
        }
        assertThat(samples.recent("b", PER_OUTPUT_TOKEN, T0, TTL)).hasSize(10);
    }

    @Test
    void theAverageOfADeploymentWithoutSamplesIsEmpty() {
        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0, TTL)).isEmpty();
        assertThat(samples.average("a", FIRST_EVENT, T0, TTL)).isEmpty();
    }

    @Test
    void theAverageIsTheMeanOfTheRecentSamples() {
        samples.add("a", PER_OUTPUT_TOKEN, T0, 1.0, 10);
        samples.add("a", PER_OUTPUT_TOKEN, T0.plusSeconds(1), 2.0, 10);
        samples.add("a", PER_OUTPUT_TOKEN, T0.plusSeconds(2), 6.0, 10);
        samples.add("b", PER_OUTPUT_TOKEN, T0, 100.0, 10);

        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0.plusSeconds(2), TTL)).hasValue(3.0);
    }

    @Test
    void theAverageCountsOnlyTheSamplesKept() {
        for (int i = 1; i <= 12; i++) {
            samples.add("a", PER_OUTPUT_TOKEN, T0, i, 10);
        }

        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0, TTL)).hasValue(7.5);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void theAverageLeavesOutExpiredSamplesAtTheSameBoundaryAsRecent(LatencySeries series) {
        samples.add("a", series, T0, 1.0, 10);
        samples.add("a", series, T0.plus(MS), 3.0, 10);

        assertThat(samples.average("a", series, T0.plus(TTL), TTL)).hasValue(2.0);
        assertThat(samples.average("a", series, T0.plus(TTL).plus(MS), TTL)).hasValue(3.0);
        assertThat(samples.average("a", series, T0.plus(TTL).plus(MS).plusNanos(1), TTL)).isEmpty();
    }

    @Test
    void aSampleAddedOutOfTimeOrderLeavesTheAverageWhenItExpires() {
        samples.add("a", PER_OUTPUT_TOKEN, T0.plusSeconds(10), 2.0, 10);
        samples.add("a", PER_OUTPUT_TOKEN, T0, 10.0, 10);
        samples.add("a", PER_OUTPUT_TOKEN, T0.plusSeconds(20), 3.0, 10);

        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0.plus(TTL), TTL)).hasValue(5.0);
        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0.plus(TTL).plusSeconds(5), TTL)).hasValue(2.5);
        assertThat(samples.recent("a", PER_OUTPUT_TOKEN, T0.plus(TTL).plusSeconds(5), TTL)).containsExactly(2.0, 3.0);
    }

    @Test
    void theAverageOfExpiredSamplesOnlyIsEmptyNotADivisionByZero() {
        samples.add("a", PER_OUTPUT_TOKEN, T0, 1.0, 10);

        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0.plus(TTL).plusNanos(1), TTL)).isEmpty();
    }

    @Test
    void theAverageIsWhatTheInterfaceWorksOutFromRecent() {
        for (int i = 0; i < 10; i++) {
            samples.add("a", PER_OUTPUT_TOKEN, T0.plusMillis(337L * i), 0.1 * (i + 1) + 1e-9 * i, 10);
            samples.add("a", FIRST_EVENT, T0.plusMillis(211L * i), 0.3 * (i + 1) + 1e-9 * i, 10);
        }
        LatencySamples viaRecent = new LatencySamples() {
            @Override
            public void add(String deploymentId, LatencySeries series, Instant at, double seconds, int maxSamples) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<Double> recent(String deploymentId, LatencySeries series, Instant now, Duration ttl) {
                return samples.recent(deploymentId, series, now, ttl);
            }
        };

        for (LatencySeries series : LatencySeries.values()) {
            for (Instant now : List.of(T0.plusSeconds(3), T0.plus(TTL), T0.plus(TTL).plusMillis(1000))) {
                assertThat(samples.average("a", series, now, TTL)).isEqualTo(viaRecent.average("a", series, now, TTL));
            }
            assertThat(viaRecent.average("none", series, T0, TTL)).isEmpty();
        }
    }

    @Test
    void theTwoSeriesOfADeploymentDoNotMix() {
        samples.add("a", PER_OUTPUT_TOKEN, T0, 0.01, 10);
        samples.add("a", FIRST_EVENT, T0, 0.5, 10);
        samples.add("a", PER_OUTPUT_TOKEN, T0.plusSeconds(1), 0.03, 10);

        assertThat(samples.recent("a", PER_OUTPUT_TOKEN, T0.plusSeconds(1), TTL)).containsExactly(0.01, 0.03);
        assertThat(samples.recent("a", FIRST_EVENT, T0.plusSeconds(1), TTL)).containsExactly(0.5);
        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0.plusSeconds(1), TTL)).hasValue(0.02);
        assertThat(samples.average("a", FIRST_EVENT, T0.plusSeconds(1), TTL)).hasValue(0.5);
    }

    @ParameterizedTest
    @EnumSource(LatencySeries.class)
    void samplesInOneSeriesLeaveTheOtherWithoutAny(LatencySeries series) {
        LatencySeries other = series == PER_OUTPUT_TOKEN ? FIRST_EVENT : PER_OUTPUT_TOKEN;
        samples.add("a", series, T0, 2.0, 10);

        assertThat(samples.recent("a", other, T0, TTL)).isEmpty();
        // Empty, not an average of 0: a deployment never streamed is explored, not ranked fastest.
        assertThat(samples.average("a", other, T0, TTL)).isEmpty();
        assertThat(samples.average("a", series, T0, TTL)).hasValue(2.0);
    }

    @Test
    void eachSeriesIsBoundedOnItsOwn() {
        for (int i = 1; i <= 12; i++) {
            samples.add("a", PER_OUTPUT_TOKEN, T0, i, 10);
        }
        for (int i = 1; i <= 3; i++) {
            samples.add("a", FIRST_EVENT, T0, 100 + i, 10);
        }
        samples.add("a", FIRST_EVENT, T0, 104, 2);

        assertThat(samples.recent("a", PER_OUTPUT_TOKEN, T0, TTL))
                .containsExactly(3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
        assertThat(samples.recent("a", FIRST_EVENT, T0, TTL)).containsExactly(103.0, 104.0);
        assertThat(samples.average("a", PER_OUTPUT_TOKEN, T0, TTL)).hasValue(7.5);
        assertThat(samples.average("a", FIRST_EVENT, T0, TTL)).hasValue(103.5);
    }

    @Test
    void eachSeriesExpiresOnItsOwn() {
        samples.add("a", PER_OUTPUT_TOKEN, T0, 1.0, 10);
        samples.add("a", FIRST_EVENT, T0.plusSeconds(10), 2.0, 10);
        samples.add("a", FIRST_EVENT, T0.plusSeconds(20), 4.0, 10);

        Instant whenTheFirstLapses = T0.plus(TTL).plus(MS);
        assertThat(samples.recent("a", PER_OUTPUT_TOKEN, T0.plus(TTL), TTL)).containsExactly(1.0);
        assertThat(samples.recent("a", PER_OUTPUT_TOKEN, whenTheFirstLapses, TTL)).isEmpty();
        assertThat(samples.average("a", PER_OUTPUT_TOKEN, whenTheFirstLapses, TTL)).isEmpty();
        assertThat(samples.recent("a", FIRST_EVENT, whenTheFirstLapses, TTL)).containsExactly(2.0, 4.0);
        assertThat(samples.average("a", FIRST_EVENT, whenTheFirstLapses, TTL)).hasValue(3.0);

        Instant whenTheSecondLapses = T0.plusSeconds(10).plus(TTL).plus(MS);
        assertThat(samples.average("a", FIRST_EVENT, whenTheSecondLapses.minus(MS), TTL)).hasValue(3.0);
        assertThat(samples.average("a", FIRST_EVENT, whenTheSecondLapses, TTL)).hasValue(4.0);
    }

    @Test
    void samplesAddedToBothSeriesFromManyThreadsAreAllKept() throws Exception {
        Concurrently.run(8, thread -> {
            for (int i = 0; i < 100; i++) {
                samples.add("a", PER_OUTPUT_TOKEN, T0, thread, 1000);
                samples.add("a", FIRST_EVENT, T0, 10 + thread, 1000);
            }
        });

        List<Double> perToken = samples.recent("a", PER_OUTPUT_TOKEN, T0, TTL);
        List<Double> firstEvent = samples.recent("a", FIRST_EVENT, T0, TTL);
        assertThat(perToken).hasSize(800).allMatch(v -> v < 10);
        assertThat(firstEvent).hasSize(800).allMatch(v -> v >= 10);
        for (int thread = 0; thread < 8; thread++) {
            double value = thread;
            assertThat(perToken).filteredOn(v -> v == value).hasSize(100);
            assertThat(firstEvent).filteredOn(v -> v == 10 + value).hasSize(100);
        }
    }
}
