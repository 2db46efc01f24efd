package dev.sluice.router.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class LowestScoreTest {
    /** Fails the test if drawn from: a single choice must not consume randomness. */
    static final RandomGenerator NEVER = new RandomGenerator() {
        @Override
        public long nextLong() {
            throw new AssertionError("drew a random number for a single choice");
        }
    };

    @Test
    void aSingleLowestIsChosenWithoutDrawing() {
        assertThat(LowestScore.pick(new double[] {3, 1, 2}, 0, NEVER)).isEqualTo(1);
        assertThat(LowestScore.any(1, NEVER)).isZero();
    }

    @Test
    void unknownScoresAreChosenOnlyWhenEveryScoreIsUnknown() {
        double inf = Double.POSITIVE_INFINITY;
        assertThat(LowestScore.pick(new double[] {inf, 7, inf}, 0, NEVER)).isEqualTo(1);
        assertThat(LowestScore.pick(new double[] {inf, inf}, 0.5, new Random(1))).isBetween(0, 1);
    }

    @Test
    void aNanCountsAsUnknown() {
        assertThat(LowestScore.pick(new double[] {Double.NaN, 5}, 0, NEVER)).isEqualTo(1);
        assertThat(LowestScore.pick(new double[] {Double.NaN}, 0, NEVER)).isZero();
    }

    @Test
    void theSlackWidensTheChoiceToScoresWithinItInclusive() {
        int[] seen = new int[3];
        Random random = new Random(2);
        for (int i = 0; i < 300; i++) {
            seen[LowestScore.pick(new double[] {2, 3, 3.25}, 0.5, random)]++;
        }

        assertThat(seen[0]).isPositive();
        assertThat(seen[1]).isPositive();
        assertThat(seen[2]).isZero();
    }
}
