package dev.sluice.accounts.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BudgetExceededTest {
    static final String LABEL = BudgetExceeded.keyLabel(Optional.of("support-bot"), "sk-Abc123Def456x3xQa");

    @Test
    void aKeysBudgetIsWordedAsLiteLlmWordsIt() {
        Budget budget = new Budget(new Scope.Key("hash"), 0.01, 0.0102);

        assertThat(BudgetExceeded.message(budget, LABEL))
                .isEqualTo("Budget has been exceeded! Key=support-bot (sk-...3xQa) Current cost: 0.0102, Max budget: 0.01");
    }

    @Test
    void aTeamsBudgetNamesTheTeam() {
        Budget budget = new Budget(new Scope.Team("team-7"), 1, 2);

        assertThat(BudgetExceeded.message(budget, LABEL))
                .isEqualTo("Budget has been exceeded! Team=team-7 Current cost: 2.0, Max budget: 1.0");
    }

    @Test
    void aKeysModelBudgetNamesTheModelGroupAndStillGivesTheAmounts() {
        Budget budget = new Budget(new Scope.KeyModel("hash", "gpt-4o"), 5, 5);

        assertThat(BudgetExceeded.message(budget, LABEL)).isEqualTo(
                "Budget has been exceeded! Key=support-bot (sk-...3xQa) Model=gpt-4o Current cost: 5.0, Max budget: 5.0");
    }

    @Test
    void aMembersBudgetInATeamNamesTheUserAndTheTeam() {
        Budget budget = new Budget(new Scope.TeamMember("team-7", "ada"), 0.5, 0.5);

        assertThat(BudgetExceeded.message(budget, LABEL))
                .isEqualTo("Budget has been exceeded! User=ada in Team=team-7 Current cost: 0.5, Max budget: 0.5");
    }

    @Test
    void smallAmountsAreWrittenAsPythonWritesThem() {
        Budget budget = new Budget(new Scope.Key("hash"), 1e-07, 0.00045);

        assertThat(BudgetExceeded.message(budget, "sk-...XdVw"))
                .endsWith("Current cost: 0.00045, Max budget: 1e-07");
    }

    @Test
    void aKeyWithoutAnAliasIsNamedByItsAbbreviation() {
        assertThat(BudgetExceeded.keyLabel(Optional.empty(), "sk-Abc123Def456x3xQa")).isEqualTo("sk-...3xQa");
        assertThat(BudgetExceeded.keyLabel(Optional.of(" "), "sk-Abc123Def456x3xQa")).isEqualTo("sk-...3xQa");
    }

    @Test
    void aShortKeyShowsNoneOfItself() {
        assertThat(BudgetExceeded.keyLabel(Optional.empty(), "sk-1234")).isEqualTo("sk-...");
    }

    @Test
    void theAnswersTypeIsLiteLlms() {
        assertThat(BudgetExceeded.TYPE).isEqualTo("budget_exceeded");
    }
}
