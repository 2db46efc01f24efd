package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** The daily rollups: counted from the rows a post logs, by day and name, once per call, and kept when rows are pruned. */
class DailySpendTest {
    private static final LocalDate DAY = LocalDate.of(2025, 1, 1);

    private static SpendRow call(String callId, String rawKey, String group, String cost, Instant startedAt) {
        return SpendRow.builder(callId, group, startedAt).keyHash(hash(rawKey)).teamId("t").deploymentId(group + "-east")
                .promptTokens(100).completionTokens(10).cachedTokens(40).cost(new BigDecimal(cost))
                .tags(List.of("prod", "batch")).build();
    }

    @StoreTest
    void aPostCountsEachNewCallUnderItsKeyTeamGroupDeploymentAndEachTag(Database database) {
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                call("c1", "sk-a", "gpt-4o", "0.5", T0),
                call("c2", "sk-a", "gpt-4o", "0.25", T0.plusSeconds(60)),
                SpendRow.builder("c3", "gpt-4o", T0).status(429).build()));
        DailySpendRepository rollups = new DailySpendRepository(database);

        assertThat(rollups.of(SpendDimension.KEY, hash("sk-a"), DAY, DAY)).containsExactly(
                new DailySpend(DAY, SpendDimension.KEY, hash("sk-a"), 2, 2, 0, 200, 20, 80, dollars("0.75")));
        assertThat(rollups.of(SpendDimension.MODEL_GROUP, "gpt-4o", DAY, DAY)).containsExactly(
                new DailySpend(DAY, SpendDimension.MODEL_GROUP, "gpt-4o", 3, 2, 1, 200, 20, 80, dollars("0.75")));
        assertThat(rollups.of(SpendDimension.TEAM, "t", DAY, DAY)).extracting(DailySpend::requests).containsExactly(2L);
        assertThat(rollups.of(SpendDimension.DEPLOYMENT, "gpt-4o-east", DAY, DAY)).extracting(DailySpend::requests)
                .containsExactly(2L);
        assertThat(rollups.between(SpendDimension.TAG, DAY, DAY)).extracting(DailySpend::name, DailySpend::spend)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("batch", dollars("0.75")),
                        org.assertj.core.groups.Tuple.tuple("prod", dollars("0.75")));
    }

    @StoreTest
    void aBatchPostedAgainAddsOnlyItsNewCallsToTheRollups(Database database) {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        List<SpendRow> batch = new ArrayList<>(List.of(call("c1", "sk-a", "g", "1", T0), call("c2", "sk-a", "g", "2", T0)));
        ledger.post(batch);
        ledger.post(batch);
        batch.add(call("c3", "sk-a", "g", "4", T0));
        ledger.post(batch);

        assertThat(new DailySpendRepository(database).of(SpendDimension.KEY, hash("sk-a"), DAY, DAY))
                .extracting(DailySpend::requests, DailySpend::spend)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(3L, dollars("7")));
    }

    @StoreTest
    void aCallCountsOnTheUtcDayItStartedOn(Database database) {
        Instant midnight = T0.plusSeconds(86_400);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                call("last", "sk-a", "g", "1", midnight.minusNanos(1_000)),
                call("first", "sk-a", "g", "2", midnight)));

        assertThat(new DailySpendRepository(database).of(SpendDimension.KEY, hash("sk-a"), DAY, DAY.plusDays(1)))
                .extracting(DailySpend::day, DailySpend::spend)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(DAY, dollars("1")),
                        org.assertj.core.groups.Tuple.tuple(DAY.plusDays(1), dollars("2")));
        assertThat(new DailySpendRepository(database).of(SpendDimension.KEY, hash("sk-a"), DAY.plusDays(1), DAY.plusDays(1)))
                .hasSize(1);
    }

    @StoreTest
    void ledgersPostingTheSameDayFromEightThreadsAtOnceAddUpExactly(Database database) throws Exception {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());

        StoreFixtures.concurrently(8, thread -> {
            for (int i = 0; i < 20; i++) {
                ledger.post(List.of(call("a-" + thread + "-" + i, "sk-a", "g", "0.001", T0),
                        call("b-" + thread + "-" + i, "sk-b", "g", "0.002", T0)));
            }
        });

        DailySpendRepository rollups = new DailySpendRepository(database);
        assertThat(rollups.of(SpendDimension.MODEL_GROUP, "g", DAY, DAY)).extracting(DailySpend::requests, DailySpend::spend)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(320L, dollars("0.48")));
        assertThat(rollups.of(SpendDimension.TAG, "prod", DAY, DAY)).extracting(DailySpend::requests).containsExactly(320L);
    }

    @StoreTest
    void pruningDeletesOnlyRowsStartedBeforeTheCutoffInChunksAndKeepsTheirRollups(Database database) {
        List<SpendRow> rows = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            rows.add(call("old-" + i, "sk-a", "g", "1", T0.plusSeconds(i)));
        }
        rows.add(call("at-cutoff", "sk-a", "g", "1", T0.plusSeconds(10)));
        new SpendLedger(database, Clock.systemUTC()).post(rows);
        SpendRepository log = new SpendRepository(database);

        assertThat(log.deleteStartedBefore(T0.plusSeconds(10), 2)).isEqualTo(5);

        assertThat(log.count()).isEqualTo(1);
        assertThat(log.find("at-cutoff")).isPresent();
        assertThat(log.deleteStartedBefore(T0.plusSeconds(10), 2)).isZero();
        assertThat(StoreFixtures.loggedSpendOfKey(database, hash("sk-a"))).isEqualTo(dollars("6"));
    }

    @StoreTest
    void aRowKeepsItsCachedTokensAndTags(Database database) {
        SpendRow row = call("c1", "sk-a", "g", "1", T0);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(row, SpendRow.builder("untagged", "g", T0).build()));

        SpendRepository log = new SpendRepository(database);
        assertThat(log.find("c1")).contains(row);
        assertThat(log.find("untagged").orElseThrow().tags()).isEmpty();
    }
}
