package dev.sluice.accounts.spend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.accounts.limits.Scope;
import dev.sluice.testing.FakeClock;
import dev.sluice.time.BudgetDuration;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SpendCountersTest {
    static final Instant T0 = FakeClock.START; // 2025-01-01T00:00:00Z
    static final Instant MIDNIGHT = Instant.parse("2025-01-02T00:00:00Z");
    static final Duration MS = Duration.ofMillis(1);
    static final Scope KEY = new Scope.Key("k1");
    static final Scope TEAM = new Scope.Team("t1");
    static final Scope KEY_MODEL = new Scope.KeyModel("k1", "gpt-4o");
    static final BudgetDuration DAILY = BudgetDuration.parse("1d");

    final FakeClock clock = new FakeClock(T0.plusSeconds(3600));
    final SpendCounters counters = new SpendCounters(clock);

    // --- seeding from the store -------------------------------------------------------------------

    @Test
    void aScopeStartsFromTheStoresSpend() {
        assertThat(counters.isSeeded(KEY)).isFalse();

        assertThat(counters.seed(KEY, StoredSpend.lifetime(1.5))).isEqualTo(1.5);

        assertThat(counters.isSeeded(KEY)).isTrue();
        assertThat(counters.current(KEY)).isEqualTo(1.5);
        assertThat(counters.resetAt(KEY)).isEmpty();
    }

    @Test
    void aScopeAlreadySeededKeepsItsOwnCount() {
        counters.seed(KEY, StoredSpend.lifetime(1.5));
        counters.add(KEY, 0.5);

        // The store has not caught up with the 0.5 yet; its figure must not replace the counter's.
        assertThat(counters.seed(KEY, StoredSpend.lifetime(1.5))).isEqualTo(2.0);
    }

    @Test
    void costsAddedBeforeTheSeedAreKept() {
        counters.add(KEY, 0.25);
        assertThat(counters.isSeeded(KEY)).isFalse();

        assertThat(counters.seed(KEY, StoredSpend.periodic(1.0, DAILY, Optional.of(MIDNIGHT)))).isEqualTo(1.25);
        assertThat(counters.resetAt(KEY)).contains(MIDNIGHT);
    }

    @Test
    void aScopeNeverSeenHasSpentNothing() {
        assertThat(counters.current(KEY)).isZero();
        assertThat(counters.resetAt(KEY)).isEmpty();
    }

    // --- adding -----------------------------------------------------------------------------------

    @Test
    void aCostIsSeenByTheVeryNextRead() {
        counters.seed(KEY, StoredSpend.lifetime(0.01));

        assertThat(counters.add(KEY, 0.0025)).isEqualTo(0.0125);
        assertThat(counters.current(KEY)).isEqualTo(0.0125);
    }

    @Test
    void keysTeamsAndKeyModelGroupsAreCountedApart() {
        counters.seed(KEY, StoredSpend.lifetime(1));
        counters.seed(TEAM, StoredSpend.lifetime(10));
        counters.seed(KEY_MODEL, StoredSpend.lifetime(0));

        counters.add(KEY_MODEL, 0.5);

        assertThat(counters.current(KEY)).isEqualTo(1);
        assertThat(counters.current(TEAM)).isEqualTo(10);
        assertThat(counters.current(KEY_MODEL)).isEqualTo(0.5);
        assertThat(counters.current(new Scope.KeyModel("k1", "gpt-4o-mini"))).isZero();
    }

    @Test
    void costsFromManyThreadsAllCount() throws Exception {
        counters.seed(KEY, StoredSpend.lifetime(0));
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                start.await();
                for (int i = 0; i < 10_000; i++) {
                    counters.add(KEY, 0.5);
                }
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        assertThat(counters.current(KEY)).isEqualTo(40_000.0);
    }

    @Test
    void aNegativeOrNonNumericCostIsRefused() {
        assertThatThrownBy(() -> counters.add(KEY, -0.01))
                .hasMessage("cost: -0.01 (expected: a number of US dollars >= 0)");
        assertThatThrownBy(() -> counters.add(KEY, Double.NaN)).hasMessageStartingWith("cost: NaN");
        assertThatThrownBy(() -> StoredSpend.lifetime(Double.POSITIVE_INFINITY)).hasMessageStartingWith("spend: Infinity");
    }

    // --- budget periods ---------------------------------------------------------------------------

    @Test
    void spendStillCountsOneMillisecondBeforeTheReset() {
        counters.seed(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)));

        clock.set(MIDNIGHT.minus(MS));

        assertThat(counters.current(KEY)).isEqualTo(3.0);
        assertThat(counters.resetAt(KEY)).contains(MIDNIGHT);
    }

    @Test
    void spendStartsAgainExactlyAtTheReset() {
        counters.seed(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)));

        clock.set(MIDNIGHT);

        assertThat(counters.current(KEY)).isZero();
        assertThat(counters.resetAt(KEY)).contains(MIDNIGHT.plus(Duration.ofDays(1)));
    }

    @Test
    void theSeededPeriodHasNoKnownStartAndTheNextStartsAtTheReset() {
        counters.seed(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)));

        clock.set(MIDNIGHT.minus(MS));
        assertThat(counters.periodStart(KEY)).isEmpty();
        clock.set(MIDNIGHT.plus(Duration.ofHours(5)));
        assertThat(counters.periodStart(KEY)).contains(MIDNIGHT);
        assertThat(counters.periodStart(new Scope.Team("never seen"))).isEmpty();
    }

    @Test
    void aCostJustBeforeTheResetBelongsToTheOldPeriodAndOneAtItToTheNew() {
        counters.seed(KEY, StoredSpend.periodic(0, DAILY, Optional.of(MIDNIGHT)));

        clock.set(MIDNIGHT.minus(MS));
        counters.add(KEY, 1.0);
        clock.set(MIDNIGHT);
        counters.add(KEY, 0.25);

        assertThat(counters.current(KEY)).isEqualTo(0.25);
    }

    @Test
    void aStoredPeriodAlreadyOverCountsNothing() {
        // The store's reset job has not run: its spend belongs to a period that ended.
        clock.set(MIDNIGHT.plusSeconds(10));

        assertThat(counters.seed(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)))).isZero();
        assertThat(counters.resetAt(KEY)).contains(MIDNIGHT.plus(Duration.ofDays(1)));
    }

    @Test
    void aStoredPeriodEndingExactlyNowCountsNothingAndOneEndingLaterCountsAll() {
        clock.set(MIDNIGHT);
        assertThat(counters.seed(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)))).isZero();

        clock.set(MIDNIGHT.minus(MS));
        assertThat(counters.seed(TEAM, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)))).isEqualTo(3.0);
    }

    @Test
    void aPeriodicBudgetWithoutAStoredResetStartsItsPeriodWhenSeeded() {
        counters.seed(KEY, StoredSpend.periodic(2.0, BudgetDuration.parse("30s"), Optional.empty()));

        assertThat(counters.current(KEY)).isEqualTo(2.0);
        assertThat(counters.resetAt(KEY)).contains(clock.instant().plusSeconds(30));
    }

    @Test
    void aRollingBudgetKeepsItsCadenceAcrossIdlePeriods() {
        Instant seeded = clock.instant();
        counters.seed(KEY, StoredSpend.periodic(2.0, BudgetDuration.parse("30s"), Optional.empty()));

        clock.set(seeded.plusSeconds(95));
        counters.add(KEY, 1.0);

        assertThat(counters.current(KEY)).isEqualTo(1.0);
        assertThat(counters.resetAt(KEY)).contains(seeded.plusSeconds(120));
        clock.set(seeded.plusSeconds(120).minus(MS));
        assertThat(counters.current(KEY)).isEqualTo(1.0);
        clock.set(seeded.plusSeconds(120));
        assertThat(counters.current(KEY)).isZero();
    }

    @Test
    void manyThreadsCrossingTheResetTogetherStartOneNewPeriod() throws Exception {
        counters.seed(KEY, StoredSpend.periodic(5.0, DAILY, Optional.of(MIDNIGHT)));
        clock.set(MIDNIGHT.plusSeconds(1));
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                start.await();
                for (int i = 0; i < 1_000; i++) {
                    counters.add(KEY, 1.0);
                }
                return null;
            });
        }
        start.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        assertThat(counters.current(KEY)).isEqualTo(8_000.0);
    }

    @Test
    void calendarResetsFallInTheConfiguredTimeZone() {
        SpendCounters kolkata = new SpendCounters(clock, ZoneId.of("Asia/Kolkata"));
        clock.set(T0); // 05:30 on the 1st in Kolkata

        kolkata.seed(KEY, StoredSpend.periodic(1.0, DAILY, Optional.empty()));

        assertThat(kolkata.resetAt(KEY)).contains(Instant.parse("2025-01-01T18:30:00Z"));
    }

    @Test
    void aLifetimeBudgetNeverResets() {
        counters.seed(KEY, StoredSpend.lifetime(7.0));

        clock.advance(Duration.ofDays(400));

        assertThat(counters.current(KEY)).isEqualTo(7.0);
    }

    // --- administration ---------------------------------------------------------------------------

    @Test
    void replacingAScopeTakesTheNewFigures() {
        counters.seed(KEY, StoredSpend.lifetime(7.0));

        counters.replace(KEY, StoredSpend.periodic(0, DAILY, Optional.of(MIDNIGHT)));

        assertThat(counters.current(KEY)).isZero();
        assertThat(counters.resetAt(KEY)).contains(MIDNIGHT);
    }

    @Test
    void aForgottenScopeIsSeededAgain() {
        counters.seed(KEY, StoredSpend.lifetime(7.0));

        counters.forget(KEY);

        assertThat(counters.isSeeded(KEY)).isFalse();
        assertThat(counters.seed(KEY, StoredSpend.lifetime(8.0))).isEqualTo(8.0);
    }

    // --- raising to the store's figures and forgetting ---------------------------------------------

    @Test
    void theStoreRaisesACountOfTheSamePeriodButNeverLowersIt() {
        counters.seed(KEY, StoredSpend.periodic(1.0, DAILY, Optional.of(MIDNIGHT)));
        counters.add(KEY, 0.5);

        counters.raiseTo(KEY, StoredSpend.periodic(1.25, DAILY, Optional.of(MIDNIGHT)));
        assertThat(counters.current(KEY)).isEqualTo(1.5);

        counters.raiseTo(KEY, StoredSpend.periodic(2.0, DAILY, Optional.of(MIDNIGHT)));
        assertThat(counters.current(KEY)).isEqualTo(2.0);
    }

    @Test
    void aStoreStillInAnotherPeriodChangesNothing() {
        counters.seed(KEY, StoredSpend.periodic(1.0, DAILY, Optional.of(MIDNIGHT)));
        clock.set(MIDNIGHT);
        assertThat(counters.current(KEY)).isZero();

        // The store has not written its reset yet: its figure is of the day gone by.
        counters.raiseTo(KEY, StoredSpend.periodic(3.0, DAILY, Optional.of(MIDNIGHT)));
        assertThat(counters.current(KEY)).isZero();
        counters.raiseTo(KEY, StoredSpend.periodic(0.25, DAILY, Optional.of(MIDNIGHT.plus(Duration.ofDays(1)))));
        assertThat(counters.current(KEY)).isEqualTo(0.25);
    }

    @Test
    void raisingAScopeNotYetCountedSeedsIt() {
        counters.raiseTo(TEAM, StoredSpend.lifetime(4.0));

        assertThat(counters.isSeeded(TEAM)).isTrue();
        assertThat(counters.current(TEAM)).isEqualTo(4.0);
    }

    @Test
    void forgettingAKeyForgetsItsPerGroupBudgetsButNotOtherScopes() {
        counters.seed(KEY, StoredSpend.lifetime(1));
        counters.seed(KEY_MODEL, StoredSpend.lifetime(2));
        counters.seed(TEAM, StoredSpend.lifetime(3));
        counters.seed(new Scope.KeyModel("k2", "gpt-4o"), StoredSpend.lifetime(4));

        counters.forgetKey("k1");

        assertThat(counters.isSeeded(KEY)).isFalse();
        assertThat(counters.isSeeded(KEY_MODEL)).isFalse();
        assertThat(counters.current(TEAM)).isEqualTo(3);
        assertThat(counters.current(new Scope.KeyModel("k2", "gpt-4o"))).isEqualTo(4);
    }
}
