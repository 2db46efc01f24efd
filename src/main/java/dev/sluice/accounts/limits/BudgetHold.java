package dev.sluice.accounts.limits;

import java.util.List;

/** What an admitted call holds of its budgets, from admission to its end. */
@FunctionalInterface
public interface BudgetHold {

    /**
     * Counts the call's cost, {@code dollars}, for each of {@code charged} (the scopes its
     * spend belongs to, which a fallback to another group may make differ from those it was
     * admitted under) and lets go of what it held. Called once, when the call ends.
     */
    void settle(List<Scope> charged, double dollars);
}
