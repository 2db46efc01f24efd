package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.hash;
import static dev.sluice.store.StoreFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StoreTest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The spend log as reports read it, on both engines: rows logged one per call (PostgreSQL's
 * log, and what an earlier version left on the embedded store) and in blocks, read as one
 * log, newest first, filtered and bounded.
 */
class SpendLogReaderTest {

    @StoreTest
    void rowsLoggedPerCallAndInBlocksAreOneLogNewestFirst(Database database) {
        // Rows logged one per call, as PostgreSQL logs them and an earlier version did on the embedded store.
        database.inTransaction("log rows", connection -> SpendRepository.insert(connection, database.engine(), List.of(
                row("per-call-1", "sk-a", null, "g", "1", T0.plusSeconds(1)),
                row("per-call-3", "sk-b", null, "g", "1", T0.plusSeconds(3)))));
        new SpendLedger(database, Clock.systemUTC()).post(List.of(
                row("shipped-2", "sk-a", null, "g", "1", T0.plusSeconds(2)),
                row("shipped-4", "sk-a", null, "g", "1", T0.plusSeconds(4)),
                row("shipped-0", "sk-b", null, "g", "1", T0)));
        SpendLogReader log = new SpendLogReader(database);
        SpendLogFilter all = SpendLogFilter.between(T0, SpendLogFilter.END_OF_TIME);

        assertThat(ids(log.newest(all, 0, 10))).containsExactly("shipped-4", "per-call-3", "shipped-2", "per-call-1",
                "shipped-0");
        assertThat(ids(log.newest(all, 1, 2))).containsExactly("per-call-3", "shipped-2");
        assertThat(ids(log.newest(all, 5, 2))).isEmpty();
        SpendLogFilter keyA = new SpendLogFilter(Optional.empty(), Optional.of(hash("sk-a")), Optional.empty(), Optional.empty(),
                T0.plusSeconds(1), T0.plusSeconds(4));
        assertThat(ids(log.newest(keyA, 0, 10))).containsExactly("shipped-2", "per-call-1");
        List<String> each = new ArrayList<>();
        log.each(keyA, row -> each.add(row.callId()));
        assertThat(each).containsExactlyInAnyOrder("shipped-2", "per-call-1");
    }

    @StoreTest
    void aPageReachesAtMostTenThousandRowsIn(Database database) {
        SpendLogReader log = new SpendLogReader(database);
        SpendLogFilter all = SpendLogFilter.between(T0, SpendLogFilter.END_OF_TIME);

        assertThat(log.newest(all, SpendLogReader.MAX_REACH - 1000, 1000)).isEmpty();
        assertThatThrownBy(() -> log.newest(all, SpendLogReader.MAX_REACH - 999, 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 10000");
    }

    private static List<String> ids(List<SpendRow> rows) {
        return rows.stream().map(SpendRow::callId).toList();
    }
}
