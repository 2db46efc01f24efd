package dev.sluice.accounts.limits;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import io.vertx.core.Future;
import java.util.List;

/**
 * Where a call's budgets are checked and what it may cost is held until it ends, so calls
 * running side by side cannot all pass a budget that only one of them fits in.
 *
 * <p>A call is admitted while, for every budget that applies to it, what was spent plus what
 * calls still in flight hold is below the limit; the first call under a budget is therefore
 * always admitted, whatever its estimate. Admitted, it holds its estimate of each budget until
 * its {@link BudgetHold} is settled with what it really cost. Parallel calls then overrun a
 * budget by at most one call (and by what a call costs beyond its estimate).
 */
public interface BudgetReserver {

    /**
     * Admits a call under {@code budgets} (their limits, as the key and team say; their spend
     * and reservations are read here) and holds {@code estimate} US dollars of each, or names
     * the first budget, in the order given, that is reached. Never fails: a shared store that
     * cannot answer decides on this process's counts. Completes on the calling Vert.x context
     * when there is one.
     */
    Future<Reservation> reserve(List<Budget> budgets, double estimate);

    /** What {@link #reserve} decided. */
    sealed interface Reservation {}

    /** Admitted: {@code hold} must be settled once when the call ends. */
    record Held(BudgetHold hold) implements Reservation {}

    /** Refused: {@code budget}, with its spend and reservations as they stood, is reached. */
    record Reached(Budget budget) implements Reservation {}
}
