package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.key;
import static dev.sluice.store.StoreFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StoreTest;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Posts that carry their journal mark, as the shipper's do: on the embedded store logged as
 * blocks and counted once by mark, read back like rows; on PostgreSQL one row per call.
 */
class SpendBlocksTest {
    private static final LocalDate DAY0 = LocalDate.ofInstant(T0, ZoneOffset.UTC);
    private static final String JOURNAL = "5f0c6a43-3f58-4d38-9a55-0c2b7e3f4d11";

    private static JournalMark mark(long segment, long offset) {
        return new JournalMark(JOURNAL, segment, offset);
    }

    @StoreTest
    void aMarkedBatchIsLoggedAndReadBackAsItWasPosted(Database database) {
        new KeyRepository(database).insert(key("sk-a"));
        SpendRow tagged = SpendRow.builder("c-tagged", "g", T0.plusNanos(123_000)).keyHash(hash("sk-a"))
                .promptTokens(9).cachedTokens(4).tags(List.of("prod", "batch")).cost(dollars("0.5")).build();
        List<SpendRow> batch = List.of(tagged, row("c-plain", null, "t", "g", "0.25", T0));

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(batch, mark(0, 400))).isEqualTo(2);

        SpendRepository log = new SpendRepository(database);
        assertThat(log.count()).isEqualTo(2);
        assertThat(log.find("c-tagged")).contains(tagged);
        assertThat(log.find(Set.of("c-tagged", "c-plain", "c-missing"))).containsOnlyKeys("c-tagged", "c-plain");
        assertThat(new KeyRepository(database).findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("0.5"));
        assertThat(new SpendLedger(database, Clock.systemUTC()).shippedThrough(JOURNAL))
                .isEqualTo(database.engine() == Engine.H2 ? Optional.of(mark(0, 400)) : Optional.empty());
    }

    @StoreTest
    void aBatchPostedAgainWithAMarkAlreadyCoveredCountsNothing(Database database) {
        new KeyRepository(database).insert(key("sk-a"));
        List<SpendRow> first = List.of(row("c1", "sk-a", null, "g", "1", T0), row("c2", "sk-a", null, "g", "2", T0));
        List<SpendRow> second = List.of(row("c3", "sk-a", null, "g", "4", T0));
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        ledger.post(first, mark(3, 200));
        ledger.post(second, mark(4, 0));

        assertThat(ledger.post(first, mark(3, 200))).as("the same batch again").isZero();
        assertThat(ledger.post(second, mark(4, 0))).as("the last batch again").isZero();
        assertThat(new SpendLedger(database, Clock.systemUTC()).post(first, mark(3, 200))).as("by a ledger made afterwards").isZero();

        assertThat(new KeyRepository(database).findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("7"));
        assertThat(new SpendRepository(database).count()).isEqualTo(3);
        assertThat(new DailySpendRepository(database).of(SpendDimension.KEY, hash("sk-a"), DAY0, DAY0))
                .singleElement().satisfies(day -> assertThat(day.requests()).isEqualTo(3));
    }

    @StoreTest
    void anotherJournalsMarkIsNotThisOnes(Database database) {
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        ledger.post(List.of(row("c1", null, null, "g", "1", T0)), mark(9, 900));

        int added = ledger.post(List.of(row("c2", null, null, "g", "1", T0)),
                new JournalMark("0d1e2f30-0000-4000-8000-000000000000", 0, 100));

        assertThat(added).as("a journal folder made afresh starts its segments over").isEqualTo(1);
        assertThat(new SpendRepository(database).count()).isEqualTo(2);
    }

    @StoreTest
    void callsAnEarlierVersionLoggedOnePerCallAreNotCountedAgainWhenShippedWithAMark(Database database) {
        new KeyRepository(database).insert(key("sk-a"));
        List<SpendRow> shipped = List.of(row("old-1", "sk-a", null, "g", "1", T0), row("old-2", "sk-a", null, "g", "2", T0));
        new SpendLedger(database, Clock.systemUTC()).post(shipped);  // one row per call, as before blocks

        List<SpendRow> again = new ArrayList<>(shipped);
        again.add(row("new-1", "sk-a", null, "g", "4", T0.plusSeconds(60)));
        assertThat(new SpendLedger(database, Clock.systemUTC()).post(again, mark(0, 300))).isEqualTo(1);

        assertThat(new KeyRepository(database).findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("7"));
        assertThat(new SpendRepository(database).find(Set.of("old-1", "old-2", "new-1"))).hasSize(3);
        assertThat(new SpendRepository(database).count()).isEqualTo(3);
    }

    @StoreTest
    void aKeysSpendOnAGroupSumsTheFirstDaysPartFromBlocksAndRows(Database database) {
        Instant day = T0.plusSeconds(86_400);
        new SpendLedger(database, Clock.systemUTC()).post(List.of(row("row-early", "sk-a", null, "g", "1", day.plusSeconds(60))));
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("block-early", "sk-a", null, "g", "2", day.plusSeconds(120)),
                row("block-before", "sk-a", null, "g", "64", day.plusSeconds(30)),
                row("block-late", "sk-a", null, "g", "4", day.plusSeconds(7200)),
                row("block-other-group", "sk-a", null, "h", "8", day.plusSeconds(7200)),
                row("block-other-key", "sk-b", null, "g", "16", day.plusSeconds(7200)),
                row("block-next-day", "sk-a", null, "g", "32", day.plusSeconds(86_400 + 60))), mark(0, 700));

        SpendRepository spend = new SpendRepository(database);

        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", day.plusSeconds(60), T0)).isEqualTo(dollars("39"));
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", day.plusSeconds(61), T0)).isEqualTo(dollars("38"));
        assertThat(spend.sumCostByKeyAndModelGroup(hash("sk-a"), "g", day, T0)).isEqualTo(dollars("103"));
    }

    @StoreTest
    void aBlockIsPrunedWholeOnceItsNewestCallIsOlderThanTheCutoff(Database database) {
        Instant cutoff = T0.plusSeconds(3600);
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        ledger.post(List.of(row("old-a", null, null, "g", "1", T0), row("old-b", null, null, "g", "1", T0.plusSeconds(1))),
                mark(0, 100));
        ledger.post(List.of(row("old-c", null, null, "g", "1", T0), row("young", null, null, "g", "1", cutoff)),
                mark(0, 200));
        ledger.post(List.of(row("row-old", null, null, "g", "1", T0)));
        SpendRepository spend = new SpendRepository(database);

        long deleted = spend.deleteStartedBefore(cutoff, 1);

        Map<String, SpendRow> left = spend.find(Set.of("old-a", "old-b", "old-c", "young", "row-old"));
        if (database.engine() == Engine.H2) {
            assertThat(deleted).isEqualTo(3);
            assertThat(left).as("a block goes whole, when its newest call is old enough").containsOnlyKeys("old-c", "young");
        } else {
            assertThat(deleted).isEqualTo(4);
            assertThat(left).containsOnlyKeys("young");
        }
        assertThat(spend.count()).isEqualTo(left.size());
    }

    @StoreTest
    void aBatchLargerThanABlockTakesSeveralAndLosesNoRow(Database database) {
        List<SpendRow> rows = new ArrayList<>();
        String group = "g".repeat(200);
        for (int i = 0; i < 6_000; i++) {
            rows.add(SpendRow.builder("big-" + i, group, T0.plusMillis(i)).tags(List.of("t".repeat(40))).build());
        }

        assertThat(new SpendLedger(database, Clock.systemUTC()).post(rows, mark(1, 1))).isEqualTo(6_000);

        assertThat(new SpendRepository(database).count()).isEqualTo(6_000);
        assertThat(new SpendRepository(database).find("big-5999")).contains(rows.getLast());
        if (database.engine() == Engine.H2) {
            long blocks = database.withConnection("count blocks", connection -> {
                try (var statement = connection.createStatement();
                        var result = statement.executeQuery("SELECT COUNT(*) FROM sluice_spend_blocks")) {
                    result.next();
                    return result.getLong(1);
                }
            });
            assertThat(blocks).isGreaterThan(1);
        }
    }

    @StoreTest
    void aSnapshotReadSeesAPostThatLandsMeanwhileInNoneOfItsStatements(Database database) throws Exception {
        long[] seen = database.inSnapshot("read twice", connection -> {
            long rollups = countOf(connection, "sluice_daily_spend");
            Thread post = Thread.ofVirtual().start(() -> new SpendLedger(database, Clock.systemUTC()).post(
                    List.of(row("meanwhile", null, null, "g", "1", T0)), mark(0, 100)));
            try {
                post.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new long[] {rollups, countOf(connection, database.engine() == Engine.H2
                    ? "sluice_spend_blocks" : "sluice_spend_logs")};
        });

        assertThat(seen).containsExactly(0, 0);
        assertThat(new SpendRepository(database).count()).isEqualTo(1);
    }

    @StoreTest
    void aBlockThisVersionCannotReadFailsTheReadNamingIt(Database database) {
        if (database.engine() != Engine.H2) {
            return;  // PostgreSQL logs no blocks
        }
        database.withConnection("store a damaged block", connection -> {
            try (var statement = connection.prepareStatement("INSERT INTO sluice_spend_blocks "
                    + "(first_started_at, last_started_at, row_count, body) VALUES (?, ?, 1, ?)")) {
                Columns.time(statement, 1, T0);
                Columns.time(statement, 2, T0);
                statement.setBytes(3, new byte[] {0, 0, 0, 99, 2});
                return statement.executeUpdate();
            }
        });

        assertThatThrownBy(() -> new SpendRepository(database).find("anything"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("spend log block 1 holds a row this version cannot read");
    }

    private static long countOf(java.sql.Connection connection, String table) throws java.sql.SQLException {
        try (var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            result.next();
            return result.getLong(1);
        }
    }
}
