package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The budget's bound, on both sides. */
class BodyBudgetTest {
    private final BodyBudget budget = new BodyBudget(10);

    @Test
    void bytesUpToTheLimitAreHeldAndOneMoreIsNot() {
        assertThat(budget.tryHold(4)).isTrue();
        assertThat(budget.tryHold(6)).isTrue();
        assertThat(budget.held()).isEqualTo(10);

        assertThat(budget.tryHold(1)).isFalse();
        assertThat(budget.held()).isEqualTo(10); // a refusal holds nothing
    }

    @Test
    void releasedBytesMakeRoomAgain() {
        assertThat(budget.tryHold(10)).isTrue();
        assertThat(budget.tryHold(3)).isFalse();

        budget.release(3);

        assertThat(budget.tryHold(3)).isTrue();
        assertThat(budget.tryHold(1)).isFalse();
    }

    @Test
    void aBodyLargerThanTheWholeBudgetIsNeverHeld() {
        assertThat(budget.tryHold(11)).isFalse();
        assertThat(budget.tryHold(Long.MAX_VALUE)).isFalse();
        assertThat(budget.held()).isZero();
    }
}
