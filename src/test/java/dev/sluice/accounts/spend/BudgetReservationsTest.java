package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetReserver.Held;
import dev.sluice.accounts.limits.BudgetReserver.Reached;
import dev.sluice.accounts.limits.BudgetReserver.Reservation;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.testing.Concurrently;
import dev.sluice.testing.FakeClock;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Holding what calls in flight may cost against their budgets, in one process. */
class BudgetReservationsTest {
    private static final Scope KEY = new Scope.Key("k");
    private static final Scope TEAM = new Scope.Team("t");

    private final SpendCounters counters = new SpendCounters(new FakeClock());
    private final BudgetReservations reservations = new BudgetReservations(counters);

    private Reservation reserve(double maxBudget, double estimate) {
        return reservations.reserveNow(List.of(new Budget(KEY, maxBudget, 0)), estimate);
    }

    @Test
    void theFirstCallUnderABudgetIsAdmittedWhateverItsEstimate() {
        assertThat(reserve(0.01, 5.0)).isInstanceOf(Held.class);
        assertThat(reservations.held(KEY)).isEqualTo(5.0);
        assertThat(reserve(0.01, 0.001)).isInstanceOf(Reached.class);
    }

    @Test
    void aCallIsAdmittedWhileSpendAndHoldsAreBelowTheBudgetAndNotAtIt() {
        counters.add(KEY, 0.004);
        assertThat(reserve(0.01, 0.003)).isInstanceOf(Held.class); // 0.004 + 0 < 0.01
        assertThat(reserve(0.01, 0.003)).isInstanceOf(Held.class); // 0.004 + 0.003 < 0.01
        // 0.004 + 0.006 is exactly the budget: reached, in decimal, with no binary rounding.
        Reservation third = reserve(0.01, 0.003);
        assertThat(third).isInstanceOfSatisfying(Reached.class, reached -> {
            assertThat(reached.budget().spend()).isEqualTo(0.004);
            assertThat(reached.budget().reserved()).isEqualTo(0.006);
        });
    }

    @Test
    void settlingCountsTheRealCostAndLetsGoOfTheHold() {
        Held held = (Held) reserve(0.01, 0.009);
        assertThat(reserve(0.01, 0.009)).isInstanceOf(Held.class);
        held.hold().settle(List.of(KEY, TEAM), 0.002);
        assertThat(counters.current(KEY)).isEqualTo(0.002);
        assertThat(counters.current(TEAM)).isEqualTo(0.002);
        assertThat(reservations.held(KEY)).isEqualTo(0.009);
        // Settling twice changes nothing.
        held.hold().settle(List.of(KEY), 1.0);
        assertThat(counters.current(KEY)).isEqualTo(0.002);
        assertThat(reservations.held(KEY)).isEqualTo(0.009);
    }

    @Test
    void aRefusalOnOneBudgetHoldsNothingOfTheOthers() {
        counters.add(TEAM, 1.0);
        Reservation refused = reservations.reserveNow(List.of(new Budget(KEY, 5, 0), new Budget(TEAM, 1, 0)), 0.5);
        assertThat(refused).isInstanceOfSatisfying(Reached.class, reached -> assertThat(reached.budget().scope()).isEqualTo(TEAM));
        assertThat(reservations.held(KEY)).isZero();
    }

    @Test
    void manyCallsAtOnceOverrunABudgetByAtMostOneCall() throws Exception {
        double budget = 0.01;
        double perCall = 0.004;
        AtomicInteger admitted = new AtomicInteger();
        ConcurrentLinkedQueue<Held> open = new ConcurrentLinkedQueue<>();
        Concurrently.run(30, i -> {
            if (reserve(budget, perCall) instanceof Held held) {
                admitted.incrementAndGet();
                open.add(held);
            }
        });
        // 0, 0.004 and 0.008 are below 0.01: three calls, the last of which may overrun by one call.
        assertThat(admitted.get()).isEqualTo(3);
        open.forEach(held -> held.hold().settle(List.of(KEY), perCall));
        assertThat(counters.current(KEY)).isLessThanOrEqualTo(budget + perCall);
        assertThat(reservations.held(KEY)).isZero();
        assertThat(reserve(budget, perCall)).isInstanceOf(Reached.class);
    }
}
