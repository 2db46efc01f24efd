package dev.sluice.accounts.limits;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.spend.PythonFloats;
import java.util.Optional;

/**
 * The message of the 400 {@code budget_exceeded} answer, worded as LiteLLM words it so that
 * the alerts and parsers written against LiteLLM keep matching:
 *
 * <pre>
 *   Budget has been exceeded! Key=support-bot (sk-...3xQa) Current cost: 0.0102, Max budget: 0.01
 *   Budget has been exceeded! Team=team-7 Current cost: 2.0, Max budget: 1.0
 *   Budget has been exceeded! Key=support-bot (sk-...3xQa) Model=gpt-4o Current cost: 5.0, Max budget: 5.0
 *   Budget has been exceeded! Organization=acme Current cost: 9.1, Max budget: 9.0
 *   Budget has been exceeded! User=ada in Team=team-7 Current cost: 0.5, Max budget: 0.5
 *   ExceededBudget: User=ada over budget. Spend=12.0, Budget=10.0
 *   ExceededBudget: End User=customer-1 over budget. Spend=1.5, Budget=1.0
 * </pre>
 *
 * Amounts are written as Python writes floats ({@code 6.2e-05}, {@code 100.0}), as LiteLLM's
 * messages have them. For a key's per-model budget LiteLLM says only
 * {@code exceeded budget for model=...}; Sluice gives the cost and the budget there too.
 * When what calls still in flight have reserved of the budget is what reaches it, the
 * message ends with that amount ({@code , Reserved by calls in flight: 0.002}).
 */
public final class BudgetExceeded {

    /** The error {@code type} of the answer. */
    public static final String TYPE = "budget_exceeded";

    private BudgetExceeded() {}

    /**
     * The message for {@code budget}, found exhausted by {@link BudgetCheck#exhausted}.
     *
     * @param keyLabel how the key is named in it, from {@link #keyLabel}; unused for a team
     */
    public static String message(Budget budget, String keyLabel) {
        String reserved = budget.reserved() > 0 ? ", Reserved by calls in flight: " + PythonFloats.repr(budget.reserved()) : "";
        // LiteLLM words the budgets of users and end users differently from the rest.
        String overBudget = switch (budget.scope()) {
            case Scope.User user -> "User=" + user.userId();
            case Scope.EndUser endUser -> "End User=" + endUser.endUserId();
            default -> null;
        };
        if (overBudget != null) {
            return "ExceededBudget: " + overBudget + " over budget. Spend=" + PythonFloats.repr(budget.spend())
                    + ", Budget=" + PythonFloats.repr(budget.maxBudget()) + reserved;
        }
        String who = subject(budget, keyLabel);
        return "Budget has been exceeded! " + who + " Current cost: " + PythonFloats.repr(budget.spend())
                + ", Max budget: " + PythonFloats.repr(budget.maxBudget()) + reserved;
    }

    /** Whose budget {@code budget} is, as the message names it ({@code Key=support-bot (sk-...3xQa)}, {@code Team=team-7}). */
    static String subject(Budget budget, String keyLabel) {
        return switch (budget.scope()) {
            case Scope.Key key -> "Key=" + keyLabel;
            case Scope.Team team -> "Team=" + team.teamId();
            case Scope.KeyModel model -> "Key=" + keyLabel + " Model=" + model.modelGroup();
            case Scope.Organization organization -> "Organization=" + organization.organizationId();
            case Scope.User user -> "User=" + user.userId();
            case Scope.EndUser endUser -> "End User=" + endUser.endUserId();
            case Scope.TeamMember member -> "User=" + member.userId() + " in Team=" + member.teamId();
        };
    }

    /**
     * A key as LiteLLM names it in the message: its alias and its abbreviation
     * ({@code support-bot (sk-...3xQa)}), or the abbreviation alone. The abbreviation shows
     * only the last four characters, and none of a key too short to spare them.
     */
    public static String keyLabel(Optional<String> alias, String key) {
        String abbreviated = key.length() >= 8 ? "sk-..." + key.substring(key.length() - 4) : "sk-...";
        return alias.filter(a -> !a.isBlank()).map(a -> a + " (" + abbreviated + ")").orElse(abbreviated);
    }
}
