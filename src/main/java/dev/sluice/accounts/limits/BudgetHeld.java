package dev.sluice.accounts.limits;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.spend.PythonFloats;
import java.time.Duration;

/**
 * The 429 of a call refused only because calls still in flight hold the rest of a budget:
 * what was spent is below the limit, and what they hold reaches it. Their holds go as they
 * end, within moments, so the caller is told to retry ({@code Retry-After}), not that it is
 * over budget; the 400 {@link BudgetExceeded} stays for spend that has reached the limit.
 *
 * <pre>
 *   Budget is held by calls in flight: Key=support-bot (sk-...3xQa) Current cost: 0.0, Max budget: 1.1,
 *   Reserved by calls in flight: 1.587. Retry after 1 s, as those calls end.
 * </pre>
 */
public final class BudgetHeld {

    /** The error {@code code} of the answer. */
    public static final String CODE = "budget_held_by_calls_in_flight";
    /** The error {@code type}: the caller's retry logic reads it as any 429's. */
    public static final String TYPE = "rate_limit_error";
    /** The {@code Retry-After} of the answer: the shortest whole second, as holds clear when calls end. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private BudgetHeld() {}

    /**
     * The message for {@code budget}, which {@link BudgetCheck#exhausted} named and whose spend
     * has not reached its limit.
     *
     * @param keyLabel how the key is named in it, from {@link BudgetExceeded#keyLabel}; unused for a team
     */
    public static String message(Budget budget, String keyLabel) {
        return "Budget is held by calls in flight: " + BudgetExceeded.subject(budget, keyLabel) + " Current cost: "
                + PythonFloats.repr(budget.spend()) + ", Max budget: " + PythonFloats.repr(budget.maxBudget())
                + ", Reserved by calls in flight: " + PythonFloats.repr(budget.reserved()) + ". Retry after "
                + RETRY_AFTER.toSeconds() + " s, as those calls end.";
    }
}
