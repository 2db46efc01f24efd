package dev.sluice.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {
    private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(8), Duration.ofSeconds(60));

    @Test
    void waitIsJitteredBetweenZeroAndTheDoublingCeiling() {
        Random random = new Random(1);
        for (int repeat = 0; repeat < 6; repeat++) {
            long ceiling = Math.min(500L << repeat, 8000);
            long max = 0;
            for (int i = 0; i < 2000; i++) {
                long wait = backoff.delay(repeat, Optional.empty(), random).toMillis();
                assertThat(wait).isBetween(0L, ceiling);
                max = Math.max(max, wait);
            }
            assertThat(max).as("full jitter reaches near the ceiling for repeat " + repeat).isGreaterThan(ceiling * 9 / 10);
        }
    }

    @Test
    void ceilingStopsAtTheMaximumEvenForManyRepeats() {
        Random random = new Random(2);
        for (int i = 0; i < 1000; i++) {
            assertThat(backoff.delay(40, Optional.empty(), random)).isLessThanOrEqualTo(Duration.ofSeconds(8));
        }
    }

    @Test
    void retryAfterLongerThanTheJitterWinsAndIsCappedAtTheMaximum() {
        Random random = new Random(3);
        assertThat(backoff.delay(0, Optional.of(Duration.ofSeconds(3)), random)).isEqualTo(Duration.ofSeconds(3));
        assertThat(backoff.delay(0, Optional.of(Duration.ofSeconds(61)), random)).isEqualTo(Duration.ofSeconds(60));
        assertThat(backoff.delay(0, Optional.of(Duration.ZERO), random)).isLessThanOrEqualTo(Duration.ofMillis(500));
    }

    @Test
    void sameSeedGivesTheSameWaits() {
        assertThat(backoff.delay(2, Optional.empty(), new Random(9))).isEqualTo(backoff.delay(2, Optional.empty(), new Random(9)));
    }
}
