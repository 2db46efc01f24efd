package dev.sluice.accounts;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetExceeded;
import dev.sluice.accounts.limits.BudgetHeld;
import dev.sluice.accounts.limits.BudgetReserver;
import dev.sluice.wire.ApiError;
import java.util.Map;

/** The answer to a call refused because one of its budgets is reached. */
final class BudgetRefusal {

    private BudgetRefusal() {}

    /**
     * A 400 {@code budget_exceeded} when the budget's spend has reached its limit; a 429
     * {@code budget_held_by_calls_in_flight} with {@code Retry-After} when only the holds of
     * calls in flight do, as those clear the moment the calls end ({@link BudgetHeld}).
     *
     * @param keyLabel how the key is named, from {@link BudgetExceeded#keyLabel}; unused for other budgets
     */
    static ApiError of(BudgetReserver.Reached reached, String keyLabel) {
        Budget budget = reached.budget();
        if (!budget.spentOut()) {
            return new ApiError(429, BudgetHeld.TYPE, BudgetHeld.message(budget, keyLabel), null, BudgetHeld.CODE)
                    .withHeaders(Map.of("Retry-After", Long.toString(BudgetHeld.RETRY_AFTER.toSeconds())));
        }
        return new ApiError(400, BudgetExceeded.TYPE, BudgetExceeded.message(budget, keyLabel), null, "400");
    }
}
