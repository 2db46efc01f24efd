package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OutputTokenAveragesTest {
    final OutputTokenAverages averages = new OutputTokenAverages();

    @Test
    void aGroupWithNoAnswerYetIsTakenToWriteTheDocumentedDefault() {
        assertThat(averages.expected("g")).isEqualTo(256).isEqualTo(OutputTokenAverages.DEFAULT_OUTPUT_TOKENS);
    }

    @Test
    void oneAnswerIsTheAverageAtOnceAndEachGroupHasItsOwn() {
        averages.answered("g", 12);

        assertThat(averages.expected("g")).isEqualTo(12);
        assertThat(averages.expected("other")).isEqualTo(256);
    }

    @Test
    void theFirstAnswersAreAveragedEquallyToTheNearestToken() {
        averages.answered("g", 10);
        averages.answered("g", 20);
        averages.answered("g", 31);
        assertThat(averages.expected("g")).isEqualTo(20); // 61 / 3 = 20.33...
        averages.answered("g", 21);
        assertThat(averages.expected("g")).isEqualTo(21); // 82 / 4 = 20.5
    }

    @Test
    void pastItsWindowEachAnswerMovesTheAverageByABoundedShare() {
        for (int i = 0; i < OutputTokenAverages.WINDOW; i++) {
            averages.answered("g", 100);
        }
        averages.answered("g", 100 + 32 * 64);

        // One answer of 2148 tokens moves an average of 100 by 1/32 of the difference: 164, not 2148.
        assertThat(averages.expected("g")).isEqualTo(164);
        for (int i = 0; i < 200; i++) {
            averages.answered("g", 40);
        }
        assertThat(averages.expected("g")).as("it follows answers that shrink").isEqualTo(40);
    }

    @Test
    void anAnswerOfNoTokensCountsAndNegativeOnesAreRefused() {
        averages.answered("g", 0);

        assertThat(averages.expected("g")).isZero();
        assertThatThrownBy(() -> averages.answered("g", -1)).hasMessage("outputTokens: -1 (expected: >= 0)");
    }

    @Test
    void groupsPastTheBoundAreSizedByTheDefaultAndHeldOnesStillLearn() {
        for (int i = 0; i < OutputTokenAverages.MAX_GROUPS; i++) {
            averages.answered("g" + i, 5);
        }
        averages.answered("one-too-many", 5);
        averages.answered("g0", 7);

        assertThat(averages.groups()).isEqualTo(OutputTokenAverages.MAX_GROUPS);
        assertThat(averages.expected("one-too-many")).isEqualTo(256);
        assertThat(averages.expected("g0")).isEqualTo(6);
    }
}
