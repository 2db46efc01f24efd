package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** sluice_spend_logs through {@link SpendRepository}, on both engines. */
class SpendRepositoryTest {

    static SpendRow everyField() {
        return SpendRow.builder("chatcmpl-call-1", "gpt-4o", T0.plusNanos(987_654_321))
                .keyHash(hash("sk-caller"))
                .teamId("team-a")
                .userId("user-1")
                .deploymentId("azure-eu-1")
                .promptTokens(1200)
                .completionTokens(345)
                .cost(new BigDecimal("0.0064500000009"))
                .status(200)
                .durationMs(1843)
                .build();
    }

    @StoreTest
    void aRowReadsBackAsItWasWritten(Database database) {
        SpendRepository spend = new SpendRepository(database);

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(List.of(everyField()))).isEqualTo(1);

        SpendRow read = spend.find("chatcmpl-call-1").orElseThrow();
        assertThat(read).isEqualTo(everyField());
        assertThat(read.tokens().totalTokens()).isEqualTo(1545);
        assertThat(read.cost()).isEqualTo(dollars("0.006450000001"));
    }

    /**
     * Posted one per call (a row of {@code sluice_spend_logs} on both engines) and with a
     * journal mark (on the embedded store a block, its hit's body beside a miss's of version 2).
     */
    @StoreTest
    void aCallTheCacheAnsweredReadsBackAsAHitWithItsKey(Database database) {
        String key = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        SpendRow hit = SpendRow.builder("call-hit", "gpt-4o", T0).keyHash(hash("sk-a")).cacheHit(true).cacheKey(key)
                .build();
        SpendRow stored = SpendRow.builder("call-stored", "gpt-4o", T0).deploymentId("azure-eu-1").promptTokens(9)
                .cacheKey("team-a:" + key).build();
        SpendRow markedHit = SpendRow.builder("call-hit-marked", "gpt-4o", T0).cacheHit(true).build();
        SpendRow markedMiss = row("call-miss-marked", "sk-a", null, "gpt-4o", "0.5", T0);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(hit, stored));
        new SpendLedger(database, Clock.systemUTC()).post(List.of(markedMiss, markedHit),
                new JournalMark("5f0c6a43-3f58-4d38-9a55-0c2b7e3f4d11", 0, 100));

        Map<String, SpendRow> read = new SpendRepository(database)
                .find(Set.of("call-hit", "call-stored", "call-hit-marked", "call-miss-marked"));

        assertThat(read).isEqualTo(Map.of("call-hit", hit, "call-stored", stored, "call-hit-marked", markedHit,
                "call-miss-marked", markedMiss));
        assertThat(read.get("call-hit").cacheHit()).isTrue();
        assertThat(read.get("call-hit").cacheKey()).contains(key);
        assertThat(read.get("call-stored").cacheHit()).isFalse();
        assertThat(read.get("call-hit-marked").cacheHit()).isTrue();
    }

    @StoreTest
    void aRowLoggedBeforeMigration8ReadsBackAsACallTheCacheDidNotAnswer(TestDatabase store) {
        Database database = StoreFixtures.leftAtSchemaVersion(store, "7", "INSERT INTO sluice_spend_logs (call_id, "
                + "model_group, prompt_tokens, completion_tokens, total_tokens, cost, status, duration_ms, started_at) "
                + "VALUES ('before', 'g', 1, 2, 3, 0.5, 200, 9, TIMESTAMP WITH TIME ZONE '2025-01-01 00:00:00+00')");

        database.migrate();

        assertThat(new SpendRepository(database).find("before")).contains(SpendRow.builder("before", "g", T0)
                .promptTokens(1).completionTokens(2).cost(new BigDecimal("0.5")).durationMs(9).build());
    }

    @StoreTest
    void aRowOfAFailedCallWithoutKeyOrDeploymentReadsBack(Database database) {
        SpendRepository spend = new SpendRepository(database);
        SpendRow failed = SpendRow.builder("call-429", "gpt-4o", T0).status(429).durationMs(3).build();

        new SpendLedger(database, Clock.systemUTC()).post(List.of(failed));

        assertThat(spend.find("call-429")).contains(failed);
    }

    @StoreTest
    void aBatchWrittenAgainAfterARetryLogsEachCallOnce(Database database) {
        SpendRepository spend = new SpendRepository(database);
        List<SpendRow> batch = List.of(
                row("c1", "sk-a", "t", "gpt-4o", "0.5", T0),
                row("c2", "sk-a", "t", "gpt-4o", "0.25", T0),
                row("c3", "sk-b", null, "gpt-4o-mini", "0.125", T0));

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(batch)).isEqualTo(3);
        assertThat(new SpendLedger(database, Clock.systemUTC()).post(batch)).isZero();
        List<SpendRow> overlapping = new ArrayList<>(batch.subList(1, 3));
        overlapping.add(row("c4", "sk-a", "t", "gpt-4o", "1", T0));
        assertThat(new SpendLedger(database, Clock.systemUTC()).post(overlapping)).isEqualTo(1);

        assertThat(spend.count()).isEqualTo(4);
        assertThat(StoreFixtures.loggedSpendOfKey(database, hash("sk-a"))).isEqualTo(dollars("1.75"));
    }

    @StoreTest
    void theSameCallTwiceInOneBatchIsLoggedOnceAsFirstWritten(Database database) {
        SpendRepository spend = new SpendRepository(database);

        int added = new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("twice", "sk-a", null, "gpt-4o", "0.5", T0),
                row("twice", "sk-a", null, "gpt-4o", "9", T0)));

        assertThat(added).isEqualTo(1);
        assertThat(spend.find("twice").orElseThrow().cost()).isEqualTo(dollars("0.5"));
    }

    @StoreTest
    void anEmptyBatchWritesNothing(Database database) {
        SpendRepository spend = new SpendRepository(database);

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(List.of())).isZero();
        assertThat(spend.count()).isZero();
    }

    @StoreTest
    void aKeysSpendOnAGroupCountsCallsFromTheGivenInstantOn(Database database) {
        SpendRepository spend = new SpendRepository(database);
        Instant since = T0.plusSeconds(3600);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("before", "sk-a", "t1", "gpt-4o", "100", since.minusNanos(1_000)),
                row("at", "sk-a", "t1", "gpt-4o", "0.1", since),
                row("after", "sk-a", "t1", "gpt-4o-mini", "0.02", since.plusSeconds(5)),
                row("other-key", "sk-b", "t1", "gpt-4o", "0.003", since.plusSeconds(5)),
                row("other-team", "sk-c", "t2", "gpt-4o", "0.0004", since.plusSeconds(5)),
                row("no-key", null, null, "gpt-4o", "0.00005", since.plusSeconds(5))));

        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "gpt-4o", since.plusNanos(1_000), T0)).isEqualTo(Money.ZERO);
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "gpt-4o-mini", since, T0)).isEqualTo(dollars("0.02"));
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "gpt-4o", since, T0)).isEqualTo(dollars("0.1"));
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "gpt-4o", T0, T0)).isEqualTo(dollars("100.1"));
    }

    @StoreTest
    void aKeysSpendOnAGroupBeyondTheDaysTheLogKeepsComesFromTheDailyRollups(Database database) {
        Instant day1 = T0.plusSeconds(12 * 3600);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("d1-early", "sk-a", null, "g", "1", day1.minusSeconds(3600)),
                row("d1-late", "sk-a", null, "g", "2", day1.plusSeconds(3600)),
                row("d2", "sk-a", null, "g", "4", day1.plusSeconds(86_400)),
                row("d3", "sk-a", null, "g", "8", day1.plusSeconds(2 * 86_400)),
                row("other-group", "sk-a", null, "h", "16", day1.plusSeconds(86_400))));
        SpendRepository spend = new SpendRepository(database);

        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", day1, T0))
                .as("the log keeps the first day: its part from the rows, the days after from the rollups")
                .isEqualTo(dollars("14"));
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", day1, day1.plusSeconds(1)))
                .as("the log no longer keeps the period's start: its whole first day counts, never less")
                .isEqualTo(dollars("15"));
        spend.deleteStartedBefore(day1.plusSeconds(3 * 86_400), 100);
        assertThat(spend.count()).isZero();
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", Instant.EPOCH, day1.plusSeconds(3 * 86_400)))
                .as("a budget without a period counts every day the rollups hold")
                .isEqualTo(dollars("15"));
    }

    @StoreTest
    void nothingLoggedSumsToZero(Database database) {
        SpendRepository spend = new SpendRepository(database);

        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-nobody"), "gpt-4o", T0, T0)).isEqualTo(Money.ZERO);
        assertThat(spend.find("nothing")).isEmpty();
    }

    @StoreTest
    void aBatchOfAThousandRowsIsWrittenWhole(Database database) {
        SpendRepository spend = new SpendRepository(database);
        List<SpendRow> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(row("bulk-" + i, "sk-bulk", "t", "gpt-4o", "0.001", T0.plusMillis(i)));
        }

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(rows)).isEqualTo(1000);

        assertThat(StoreFixtures.loggedSpendOfKey(database, hash("sk-bulk"))).isEqualTo(dollars("1"));
    }
}
