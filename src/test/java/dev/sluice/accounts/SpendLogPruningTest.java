package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.SpendLogSettings;
import dev.sluice.store.Database;
import dev.sluice.store.SpendLedger;
import dev.sluice.store.SpendRepository;
import dev.sluice.store.SpendRow;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.SupervisedLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Old spend rows go, at the retention period's edge exactly; younger ones stay. */
class SpendLogPruningTest {
    private static final Instant NOW = FakeClock.START.plus(Duration.ofDays(100));

    @StoreTest
    void rowsOfCallsOlderThanTheRetentionPeriodAreDeletedAndNoOthers(Database database) {
        Duration keep = Duration.ofDays(30);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                SpendRow.builder("older", "g", NOW.minus(keep).minusSeconds(1)).build(),
                SpendRow.builder("at-the-edge", "g", NOW.minus(keep)).build(),
                SpendRow.builder("younger", "g", NOW.minus(keep).plusSeconds(1)).build()));
        SpendRepository log = new SpendRepository(database);
        FakeClock clock = new FakeClock(NOW);
        SpendLogPruning pruning = new SpendLogPruning(log, new SpendLogSettings(keep, Duration.ofDays(1)), clock);

        assertThat(pruning.runOnce()).isEqualTo(1);
        assertThat(log.find("older")).isEmpty();
        assertThat(log.find("at-the-edge")).isPresent();

        clock.advance(Duration.ofSeconds(1));
        assertThat(pruning.runOnce()).isEqualTo(1);
        assertThat(log.find("younger")).isPresent();
        assertThat(log.count()).isEqualTo(1);
    }

    @StoreTest
    void thePruningOutlivesARunThatRanOutOfMemoryAndTheNextRunPrunes(Database database) throws InterruptedException {
        Duration keep = Duration.ofDays(30);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(SpendRow.builder("older", "g", NOW.minus(keep).minusSeconds(1)).build()));
        SpendRepository log = new SpendRepository(database);
        FailingOnceClock clock = new FailingOnceClock(new FakeClock(NOW));
        TestSupervision time = new TestSupervision();

        SupervisedLoop pruning = new SpendLogPruning(log, new SpendLogSettings(keep, Duration.ofDays(1)), clock)
                .start(CompletableFuture.completedFuture(null), time.scheduler());
        try {
            Eventually.until("the old row pruned", Duration.ofSeconds(10), () -> log.find("older").isEmpty());
            assertThat(clock.failed()).isTrue();
            assertThat(time.restarts().of("spend-log-pruning")).isEqualTo(1);
            assertThat(time.waits()).startsWith(Duration.ofSeconds(1));
        } finally {
            pruning.interrupt();
            pruning.thread().join();
        }
    }
}
