package dev.sluice.accounts.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.accounts.limits.BudgetCheck.Allowed;
import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetCheck.OverBudget;
import dev.sluice.accounts.limits.BudgetCheck.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetCheckTest {
    static final Scope KEY = new Scope.Key("k1");
    static final Scope TEAM = new Scope.Team("t1");
    static final Scope KEY_MODEL = new Scope.KeyModel("k1", "fast");

    // --- the fallback pre-check -------------------------------------------------------------------

    @Test
    void aRemainingBudgetEqualToTheEstimateCoversIt() {
        Verdict verdict = BudgetCheck.fallback(List.of(new Budget(KEY, 0.01, 0.0075)), 0.0025);

        assertThat(verdict).isEqualTo(Allowed.COVERED);
    }

    @Test
    void aRemainingBudgetJustBelowTheEstimateDoesNot() {
        Budget key = new Budget(KEY, 0.01, 0.0075000001);

        assertThat(BudgetCheck.fallback(List.of(key), 0.0025)).isEqualTo(new OverBudget(key, 0.0025));
    }

    @Test
    void theSeedsSmallBudgetKeyGetsItsFallback() {
        // Seed 003: max_budget 0.01, 6.2e-05 spent; the fallback call cost 2.48e-05.
        assertThat(BudgetCheck.fallback(List.of(new Budget(KEY, 0.01, 6.2e-05)), 2.48e-05)).isEqualTo(Allowed.COVERED);
    }

    @Test
    void everyBudgetMustCoverTheEstimateAndTheFirstThatDoesNotIsNamed() {
        Budget key = new Budget(KEY, 100, 1);
        Budget team = new Budget(TEAM, 1, 0.999);
        Budget model = new Budget(KEY_MODEL, 0.5, 0.5);

        Verdict verdict = BudgetCheck.fallback(List.of(key, team, model), 0.002);

        assertThat(verdict).isEqualTo(new OverBudget(team, 0.002));
    }

    @Test
    void aKeysModelBudgetAloneCanSkipTheTarget() {
        Budget key = new Budget(KEY, 100, 0);
        Budget model = new Budget(KEY_MODEL, 5.0, 4.999);

        assertThat(BudgetCheck.fallback(List.of(key, model), 0.001)).isEqualTo(Allowed.COVERED);
        assertThat(BudgetCheck.fallback(List.of(key, model), 0.0011)).isEqualTo(new OverBudget(model, 0.0011));
    }

    @Test
    void aFreeTargetIsAllowedEvenOverEveryBudget() {
        List<Budget> spent = List.of(new Budget(KEY, 1, 2), new Budget(TEAM, 0, 0));

        assertThat(BudgetCheck.fallback(spent, 0)).isEqualTo(Allowed.FREE);
    }

    @Test
    void withoutBudgetsEveryTargetIsCovered() {
        assertThat(BudgetCheck.fallback(List.of(), 1000)).isEqualTo(Allowed.COVERED);
    }

    @Test
    void anOverBudgetVerdictDescribesItselfForTheLogs() {
        OverBudget over = new OverBudget(new Budget(TEAM, 0.01, 0.0099), 0.0025);

        assertThat(over.describe()).isEqualTo(
                "team t1 has spent 0.0099 of its budget of 0.01, leaving 0.0001, less than the estimated 0.0025 of the fallback call");
    }

    @Test
    void anEstimateThatIsNotAnAmountIsRefused() {
        assertThatThrownBy(() -> BudgetCheck.fallback(List.of(), Double.NaN)).hasMessageStartingWith("estimate: NaN");
        assertThatThrownBy(() -> BudgetCheck.fallback(List.of(), -1)).hasMessageStartingWith("estimate: -1.0");
    }

    // --- the request's own budget -----------------------------------------------------------------

    @Test
    void aBudgetIsExhaustedWhenItsSpendReachesTheLimit() {
        Budget reached = new Budget(KEY, 0.01, 0.01);

        assertThat(BudgetCheck.exhausted(List.of(reached))).contains(reached);
    }

    @Test
    void aBudgetJustShortOfItsLimitIsNotExhausted() {
        assertThat(BudgetCheck.exhausted(List.of(new Budget(KEY, 0.01, 0.0099999)))).isEmpty();
    }

    @Test
    void aBudgetOfZeroAdmitsNothing() {
        Budget zero = new Budget(KEY, 0, 0);

        assertThat(BudgetCheck.exhausted(List.of(zero))).contains(zero);
    }

    @Test
    void theFirstExhaustedBudgetIsNamed() {
        Budget key = new Budget(KEY, 10, 1);
        Budget team = new Budget(TEAM, 1, 1.5);
        Budget model = new Budget(KEY_MODEL, 1, 1);

        assertThat(BudgetCheck.exhausted(List.of(key, team, model))).contains(team);
    }

    @Test
    void aBudgetReachedOnlyByHoldsIsNotSpentOutAndOneSpentToItsLimitIs() {
        Budget held = new Budget(KEY, 0.01, 0.0099999, 0.0000001);
        Budget spent = new Budget(KEY, 0.01, 0.01, 0);

        assertThat(BudgetCheck.exhausted(List.of(held))).contains(held);
        assertThat(held.spentOut()).isFalse();
        assertThat(spent.spentOut()).isTrue();
    }

    @Test
    void aBudgetSpentOutIsNamedBeforeAnEarlierOneOnlyHeld() {
        Budget key = new Budget(KEY, 1, 0.5, 0.5);
        Budget team = new Budget(TEAM, 1, 1);

        assertThat(BudgetCheck.exhausted(List.of(key, team))).contains(team);
        assertThat(BudgetCheck.exhausted(List.of(key, new Budget(TEAM, 1, 0.9)))).contains(key);
    }

    @Test
    void decimalAmountsMeetExactly() {
        // 0.1 + 0.2 is 0.30000000000000004 in binary; spent that way, a 0.3 budget is reached, not passed.
        Budget budget = new Budget(KEY, 0.30000000000000004, 0.1 + 0.2);

        assertThat(BudgetCheck.exhausted(List.of(budget))).contains(budget);
        assertThat(BudgetCheck.fallback(List.of(new Budget(KEY, 0.3, 0.1)), 0.2)).isEqualTo(Allowed.COVERED);
    }
}
