package dev.sluice.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.accounts.limits.BudgetCheck.Budget;
import dev.sluice.accounts.limits.BudgetReserver.Held;
import dev.sluice.accounts.limits.BudgetReserver.Reached;
import dev.sluice.accounts.limits.BudgetReserver.Reservation;
import dev.sluice.accounts.limits.Scope;
import dev.sluice.accounts.spend.BudgetReservations;
import dev.sluice.accounts.spend.SpendCounters;
import dev.sluice.accounts.spend.StoredSpend;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.TcpProxy;
import dev.sluice.testing.TestRedis;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two budget stores on one Redis stand for two replicas, each with its own spend counters:
 * what one spends and holds counts against the other's admissions, holds lapse, and a replica
 * that cannot reach Redis decides on its own counts. Time is a fake clock.
 */
class RedisBudgetsTest {
    private static final Scope KEY = new Scope.Key("k1");

    private final RedisReplicas replicas = new RedisReplicas();
    private final FakeClock clock = new FakeClock();

    @AfterEach
    void cleanUp() throws Exception {
        replicas.close();
    }

    private record Replica(RedisBudgets budgets, SpendCounters counters) {
        Reservation reserve(double maxBudget, double estimate) {
            try {
                return budgets.reserve(List.of(new Budget(KEY, maxBudget, 0)), estimate).await(5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("no decision within 5 s", e);
            }
        }
    }

    private Replica replica(String url, double storedSpend) {
        SpendCounters counters = new SpendCounters(clock);
        counters.seed(KEY, StoredSpend.lifetime(storedSpend));
        RedisBudgets budgets = replicas.store(url, link -> new RedisBudgets(link, new BudgetReservations(counters), counters, clock));
        return new Replica(budgets, counters);
    }

    private Replica replica() {
        return replica(TestRedis.url(), 0);
    }

    @Test
    void whatOneReplicaHoldsCountsAgainstTheOthersAdmissions() {
        Replica a = replica();
        Replica b = replica();
        assertThat(a.reserve(0.01, 0.006)).isInstanceOf(Held.class);
        assertThat(b.reserve(0.01, 0.004)).isInstanceOf(Held.class); // 0.006 held is below 0.01
        // 0.006 and 0.004 held are exactly the budget: reached.
        assertThat(a.reserve(0.01, 0.001)).isInstanceOfSatisfying(Reached.class, reached -> {
            assertThat(reached.budget().reserved()).isEqualTo(0.01);
            assertThat(reached.budget().spend()).isZero();
        });
    }

    @Test
    void whatOneReplicaSpendsTheOtherCountsAtItsNextAdmission() {
        Replica a = replica();
        Replica b = replica();
        Held held = (Held) a.reserve(0.01, 0.006);
        held.hold().settle(List.of(KEY), 0.004);
        assertThat(a.counters().current(KEY)).isEqualTo(0.004);
        // A settlement is sent without waiting for it, on A's own connection: B may ask before it lands.
        String spent = replicas.prefix() + "budget:api_key:k1:0:spent";
        Eventually.until("A's spend is in Redis", Duration.ofSeconds(5), () -> "0.004".equals(TestRedis.command("GET", spent)));

        assertThat(b.reserve(0.01, 0.005)).isInstanceOf(Held.class);
        assertThat(b.counters().current(KEY)).as("B's count raised to the shared spend").isEqualTo(0.004);
        // 0.004 spent and B's 0.005 held leave 0.001: below the budget, so one more call is admitted, and then none.
        assertThat(a.reserve(0.01, 0.005)).isInstanceOf(Held.class);
        assertThat(a.reserve(0.01, 0.001)).isInstanceOf(Reached.class);
    }

    @Test
    void aReplicaTeachesAnEmptyRedisTheSpendItReadFromTheDatabase() {
        Replica knowing = replica(TestRedis.url(), 0.0095);
        Replica other = replica();
        assertThat(knowing.reserve(0.01, 0.001)).isInstanceOf(Held.class);
        assertThat(other.reserve(0.01, 0.001)).isInstanceOfSatisfying(Reached.class,
                reached -> assertThat(reached.budget().spend()).isEqualTo(0.0095));
        assertThat(other.counters().current(KEY)).isEqualTo(0.0095);
    }

    @Test
    void aHoldLapsesOnceItsLifeIsOver() {
        Replica a = replica();
        Replica b = replica();
        assertThat(a.reserve(0.01, 0.02)).isInstanceOf(Held.class); // never settled: its replica died, say
        clock.advance(RedisBudgets.HOLD_LIFE.minusMillis(1));
        assertThat(b.reserve(0.01, 0.001)).isInstanceOf(Reached.class);
        clock.advance(Duration.ofMillis(1));
        assertThat(b.reserve(0.01, 0.001)).isInstanceOf(Held.class);
    }

    @Test
    void aReplicaThatCannotReachRedisDecidesOnItsOwnCountsAndHolds() {
        try (TcpProxy proxy = TcpProxy.to(TestRedis.address())) {
            Replica a = replica("redis://127.0.0.1:" + proxy.port(), 0);
            Replica b = replica();
            assertThat(b.reserve(0.01, 0.02)).isInstanceOf(Held.class);
            proxy.stop();
            // B's hold is in Redis, out of A's sight: A admits its first call, and holds it in its own process.
            assertThat(a.reserve(0.01, 0.02)).isInstanceOf(Held.class);
            assertThat(a.reserve(0.01, 0.001)).isInstanceOf(Reached.class);
        }
    }
}
