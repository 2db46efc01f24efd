package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.key;
import static dev.sluice.store.StoreFixtures.row;
import static dev.sluice.store.StoreFixtures.team;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Posting calls: rows logged and key and team spend moved together, once per call. */
class SpendLedgerTest {

    @StoreTest
    void postingLogsTheRowsAndAddsTheirCostsToKeysAndTeams(Database database) {
        KeyRepository keys = new KeyRepository(database);
        TeamRepository teams = new TeamRepository(database);
        keys.insert(key("sk-a"));
        keys.insert(key("sk-b"));
        teams.insert(team("t"));

        int posted = new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("c1", "sk-a", "t", "gpt-4o", "0.5", T0),
                row("c2", "sk-a", "t", "gpt-4o", "0.25", T0),
                row("c3", "sk-b", null, "gpt-4o", "0.125", T0),
                row("c4", null, "t", "gpt-4o", "1", T0)));

        assertThat(posted).isEqualTo(4);
        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("0.75"));
        assertThat(keys.findByHash(hash("sk-b")).orElseThrow().budget().spend()).isEqualTo(dollars("0.125"));
        assertThat(teams.findById("t").orElseThrow().budget().spend()).isEqualTo(dollars("1.75"));
        assertThat(new SpendRepository(database).count()).isEqualTo(4);
    }

    @StoreTest
    void aBatchPostedAgainCountsOnlyTheCallsNotYetPosted(Database database) {
        KeyRepository keys = new KeyRepository(database);
        TeamRepository teams = new TeamRepository(database);
        keys.insert(key("sk-a"));
        teams.insert(team("t"));
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        List<SpendRow> batch = List.of(row("c1", "sk-a", "t", "gpt-4o", "0.5", T0), row("c2", "sk-a", "t", "gpt-4o", "0.25", T0));
        ledger.post(batch);

        assertThat(ledger.post(batch)).isZero();
        List<SpendRow> retried = new ArrayList<>(batch);
        retried.add(row("c3", "sk-a", "t", "gpt-4o", "2", T0));
        assertThat(ledger.post(retried)).isEqualTo(1);

        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("2.75"));
        assertThat(teams.findById("t").orElseThrow().budget().spend()).isEqualTo(dollars("2.75"));
    }

    @StoreTest
    void spendOfADeletedKeyIsStillLogged(Database database) {
        int posted = new SpendLedger(database, Clock.systemUTC()).post(List.of(row("orphan", "sk-deleted", "gone", "gpt-4o", "0.5", T0)));

        assertThat(posted).isEqualTo(1);
        assertThat(StoreFixtures.loggedSpendOfKey(database, hash("sk-deleted"))).isEqualTo(dollars("0.5"));
    }

    @StoreTest
    void ledgersPostingFromEightThreadsAtOnceAddUpExactly(Database database) throws Exception {
        KeyRepository keys = new KeyRepository(database);
        keys.insert(key("sk-a"));
        keys.insert(key("sk-b"));
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());

        StoreFixtures.concurrently(8, thread -> {
            for (int i = 0; i < 20; i++) {
                ledger.post(List.of(
                        row("a-" + thread + "-" + i, "sk-a", null, "gpt-4o", "0.001", T0),
                        row("b-" + thread + "-" + i, "sk-b", null, "gpt-4o", "0.002", T0)));
            }
        });

        assertThat(keys.findByHash(hash("sk-a")).orElseThrow().budget().spend()).isEqualTo(dollars("0.16"));
        assertThat(keys.findByHash(hash("sk-b")).orElseThrow().budget().spend()).isEqualTo(dollars("0.32"));
    }
}
