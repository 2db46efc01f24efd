package dev.sluice.accounts.limits;

import dev.sluice.accounts.spend.PythonFloats;
import dev.sluice.accounts.spend.SpendCounters;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The two budget questions of a request, over the budgets that apply to it (its key's
 * {@code max_budget}, its team's, and its key's {@code model_max_budget} for the group).
 *
 * <ul>
 *   <li>{@link #exhausted}: may the request be served at all? Not when any budget's current
 *       spend, with what calls in flight have reserved of it, has reached its limit
 *       ({@code spend + reserved >= max_budget}; with nothing reserved this is LiteLLM's check,
 *       so a {@code max_budget} of 0 admits nothing). When spend alone has reached the limit
 *       this is the 400 {@code budget_exceeded}; when only the holds of calls in flight reach
 *       it, it is a 429 that clears as those calls end ({@link BudgetHeld}).
 *   <li>{@link #fallback}: may a fallback target be tried? Only if every budget's remaining
 *       amount covers the {@link FallbackEstimate} of the call: remaining equal to the
 *       estimate passes, one cent less does not. A target whose estimate is 0 is always
 *       allowed, over budget or not.
 * </ul>
 *
 * Amounts are compared in decimal as written ({@code 0.01 - 0.0075} leaves exactly
 * {@code 0.0025}), so a boundary is not moved by binary rounding. Stateless.
 */
public final class BudgetCheck {

    private BudgetCheck() {}

    /**
     * One budget of the request.
     *
     * @param maxBudget US dollars the scope may spend in its period
     * @param spend     US dollars it has spent in its current period
     * @param reserved  US dollars that calls admitted and not yet ended hold of it
     */
    public record Budget(Scope scope, double maxBudget, double spend, double reserved) {
        public Budget {
            Objects.requireNonNull(scope, "scope");
            if (!Double.isFinite(maxBudget)) {
                throw new IllegalArgumentException("max_budget: " + maxBudget + " (expected: a number of US dollars)");
            }
            SpendCounters.checkDollars("spend", spend);
            SpendCounters.checkDollars("reserved", reserved);
        }

        /** A budget with nothing reserved of it. */
        public Budget(Scope scope, double maxBudget, double spend) {
            this(scope, maxBudget, spend, 0);
        }

        /** The same budget with {@code reserved} held of it. */
        public Budget reserving(double reserved) {
            return new Budget(scope, maxBudget, spend, reserved);
        }

        /** Whether what was spent, holds aside, has reached the limit: only then is the budget exceeded. */
        public boolean spentOut() {
            return BigDecimal.valueOf(maxBudget).subtract(BigDecimal.valueOf(spend)).signum() <= 0;
        }

        /** What is left of the budget once spend and reservations are taken; below 0 when it is overspent. */
        public BigDecimal remaining() {
            BigDecimal left = BigDecimal.valueOf(maxBudget).subtract(BigDecimal.valueOf(spend));
            return reserved == 0 ? left : left.subtract(BigDecimal.valueOf(reserved));
        }
    }

    /** The answer of the fallback check. */
    public sealed interface Verdict {}

    /** The target may be tried. @param free whether it was allowed because its estimate is 0 */
    public record Allowed(boolean free) implements Verdict {
        public static final Allowed FREE = new Allowed(true);
        public static final Allowed COVERED = new Allowed(false);
    }

    /** The target is skipped: {@code budget} does not cover {@code estimate}. */
    public record OverBudget(Budget budget, double estimate) implements Verdict {
        /** For the logs: which budget, what is spent of what, and the estimate it did not cover. */
        public String describe() {
            return budget.scope().descriptor() + " " + budget.scope().value() + " has spent "
                    + PythonFloats.repr(budget.spend()) + " of its budget of " + PythonFloats.repr(budget.maxBudget())
                    + ", leaving " + budget.remaining().toPlainString() + ", less than the estimated "
                    + PythonFloats.repr(estimate) + " of the fallback call";
        }
    }

    /**
     * The first budget, in the order given, whose spend has reached its limit; else the first
     * whose spend with what is reserved of it has. A budget spent out is named before one only
     * held, so a call is told it is over budget rather than to retry when both apply.
     */
    public static Optional<Budget> exhausted(List<Budget> budgets) {
        Budget held = null;
        for (Budget budget : budgets) {
            if (budget.spentOut()) {
                return Optional.of(budget);
            }
            if (held == null && budget.remaining().signum() <= 0) {
                held = budget;
            }
        }
        return Optional.ofNullable(held);
    }

    /**
     * Whether a fallback estimated at {@code estimate} US dollars may be tried: allowed when
     * it is free or every budget covers it; else over the first budget, in the order given,
     * that does not.
     */
    public static Verdict fallback(List<Budget> budgets, double estimate) {
        SpendCounters.checkDollars("estimate", estimate);
        if (estimate == 0) {
            return Allowed.FREE;
        }
        BigDecimal needed = BigDecimal.valueOf(estimate);
        for (Budget budget : budgets) {
            if (budget.remaining().compareTo(needed) < 0) {
                return new OverBudget(budget, estimate);
            }
        }
        return Allowed.COVERED;
    }
}
