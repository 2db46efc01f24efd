package dev.sluice.router.strategy;

import static dev.sluice.router.strategy.Candidates.counts;
import static dev.sluice.router.strategy.Candidates.group;
import static dev.sluice.router.strategy.Candidates.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SimpleShuffleStrategyTest {

    @Test
    void tenPicksOfAWeightOneAndWeightZeroPairAllLandOnTheWeightedOne() throws Exception {
        SimpleShuffleStrategy shuffle = new SimpleShuffleStrategy(new Random(1));

        assertThat(counts(shuffle, group("weight: 1", "weight: 0"), request(10), 10))
                .containsExactly(entry("d0", 10));
    }

    @Test
    void theWeightsSetTheShares() throws Exception {
        SimpleShuffleStrategy shuffle = new SimpleShuffleStrategy(new Random(2));

        assertThat(counts(shuffle, group("weight: 3", "weight: 1"), request(10), 4000).get("d0"))
                .isBetween(2850, 3150);
    }

    @Test
    void itIsNamedAsInLitellm() {
        assertThat(new SimpleShuffleStrategy(new Random(3)).name()).isEqualTo("simple-shuffle");
    }
}
