package dev.sluice.accounts.spend;

import dev.sluice.accounts.limits.BudgetCheck;
import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetHold;
import dev.sluice.accounts.limits.BudgetReserver;
import dev.sluice.accounts.limits.Scope;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The budgets of calls in this process: what each key, team and key's model group has
 * spent ({@link SpendCounters}) and what calls in flight hold of it.
 *
 * <h2>Design notes</h2>
 * Checking, holding and settling take one lock, so a check never sees a call's cost counted
 * and its hold still there, or its hold gone and its cost not yet counted; the lock guards a
 * handful of map reads, and only calls under a budget take it.
 */
public final class BudgetReservations implements BudgetReserver {
    private final SpendCounters counters;
    private final Object lock = new Object();
    /** US dollars held of each scope by calls in flight; a scope leaves the map when nothing is held. */
    private final Map<Scope, Double> held = new HashMap<>();

    public BudgetReservations(SpendCounters counters) {
        this.counters = counters;
    }

    @Override
    public Future<Reservation> reserve(List<Budget> budgets, double estimate) {
        return Future.succeededFuture(reserveNow(budgets, estimate));
    }

    /** {@link #reserve}, decided at once. */
    public Reservation reserveNow(List<Budget> budgets, double estimate) {
        SpendCounters.checkDollars("estimate", estimate);
        List<Scope> scopes = new ArrayList<>(budgets.size());
        synchronized (lock) {
            List<Budget> now = new ArrayList<>(budgets.size());
            for (Budget budget : budgets) {
                now.add(new Budget(budget.scope(), budget.maxBudget(), counters.current(budget.scope()),
                        held.getOrDefault(budget.scope(), 0.0)));
            }
            Optional<Budget> reached = BudgetCheck.exhausted(now);
            if (reached.isPresent()) {
                return new Reached(reached.get());
            }
            if (estimate > 0) {
                for (Budget budget : budgets) {
                    held.merge(budget.scope(), estimate, Double::sum);
                    scopes.add(budget.scope());
                }
            }
        }
        return new Held(hold(scopes, estimate));
    }

    /** What {@code scope} has held of it by calls in flight in this process. */
    public double held(Scope scope) {
        synchronized (lock) {
            return held.getOrDefault(scope, 0.0);
        }
    }

    private BudgetHold hold(List<Scope> scopes, double estimate) {
        AtomicBoolean settled = new AtomicBoolean();
        return (charged, dollars) -> {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            synchronized (lock) {
                counters.addAll(charged, dollars);
                for (Scope scope : scopes) {
                    // Rounded as spend is, so many holds and releases bring a scope back to exactly nothing.
                    held.computeIfPresent(scope, (s, amount) -> {
                        double left = SpendCounters.exact(amount - estimate);
                        return left > 0 ? left : null;
                    });
                }
            }
        };
    }
}
