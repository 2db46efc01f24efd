package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.Team;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.SupervisedLoop;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/** Stored spend goes back to zero when its period ends, once, and the next period is scheduled. */
class BudgetResetsTest {
    private static final Instant T0 = FakeClock.START;

    @StoreTest
    void aKeyAndATeamAreResetWhenTheirPeriodEndsAndNotBefore(Database database) {
        KeyRepository keys = new KeyRepository(database);
        TeamRepository teams = new TeamRepository(database);
        String hash = VirtualKey.hash("sk-reset-0001");
        keys.insert(VirtualKey.builder(hash, "sk-...0001", T0).budgetDuration("30s").budgetResetAt(T0.plusSeconds(30))
                .spend(new BigDecimal("2.5")).build());
        teams.insert(Team.builder("t", T0).budgetDuration("1h").budgetResetAt(T0.plusSeconds(3600)).spend(new BigDecimal("7")).build());
        FakeClock clock = new FakeClock(T0);
        BudgetResets resets = new BudgetResets(keys, teams, clock, ZoneOffset.UTC);

        clock.set(T0.plusSeconds(29).plusMillis(999));
        assertThat(resets.runOnce()).isZero();
        assertThat(keys.findByHash(hash).orElseThrow().budget().spend()).isEqualByComparingTo("2.5");

        clock.set(T0.plusSeconds(30));
        assertThat(resets.runOnce()).isEqualTo(1);
        VirtualKey reset = keys.findByHash(hash).orElseThrow();
        assertThat(reset.budget().spend()).isEqualByComparingTo("0");
        assertThat(reset.budget().budgetResetAt()).hasValue(T0.plusSeconds(60));
        assertThat(resets.runOnce()).as("the same period is not reset twice").isZero();

        // Idle for several periods: the next reset keeps the key's cadence.
        keys.addSpend(hash, new BigDecimal("1"));
        clock.set(T0.plusSeconds(3600).plus(Duration.ofSeconds(5)));
        assertThat(resets.runOnce()).isEqualTo(2);
        assertThat(keys.findByHash(hash).orElseThrow().budget().budgetResetAt()).hasValue(T0.plusSeconds(3630));
        Team team = teams.findById("t").orElseThrow();
        assertThat(team.budget().spend()).isEqualByComparingTo("0");
        assertThat(team.budget().budgetResetAt()).hasValue(T0.plusSeconds(7200));
    }

    @StoreTest
    void aBudgetWithoutADurationIsNeverReset(Database database) {
        KeyRepository keys = new KeyRepository(database);
        String hash = VirtualKey.hash("sk-lifetime-0001");
        keys.insert(VirtualKey.builder(hash, "sk-...0001", T0).budgetResetAt(T0).spend(new BigDecimal("3")).build());
        BudgetResets resets = new BudgetResets(keys, new TeamRepository(database), new FakeClock(T0.plusSeconds(60)), ZoneOffset.UTC);

        assertThat(resets.runOnce()).isZero();
        assertThat(keys.findByHash(hash).orElseThrow().budget().spend()).isEqualByComparingTo("3");
    }

    @StoreTest
    void theResetsOutliveARunThatRanOutOfMemoryAndTheNextRunResets(Database database) throws InterruptedException {
        KeyRepository keys = new KeyRepository(database);
        String hash = VirtualKey.hash("sk-reset-oom01");
        keys.insert(VirtualKey.builder(hash, "sk-...om01", T0).budgetDuration("30s").budgetResetAt(T0.plusSeconds(30))
                .spend(new BigDecimal("2.5")).build());
        FailingOnceClock clock = new FailingOnceClock(new FakeClock(T0.plusSeconds(30)));
        TestSupervision time = new TestSupervision();

        SupervisedLoop resets = new BudgetResets(keys, new TeamRepository(database), clock, ZoneOffset.UTC).start(time.scheduler());
        try {
            Eventually.until("the key's spend reset", Duration.ofSeconds(10),
                    () -> keys.findByHash(hash).orElseThrow().budget().spend().signum() == 0);
            assertThat(clock.failed()).isTrue();
            assertThat(time.restarts().of("budget-resets")).isEqualTo(1);
            assertThat(time.waits()).startsWith(BudgetResets.EVERY, Duration.ofSeconds(1));
        } finally {
            resets.interrupt();
            resets.thread().join();
        }
    }
}
