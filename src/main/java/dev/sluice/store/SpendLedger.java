package dev.sluice.store;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Posts finished calls: logs their spend rows, adds the cost of each row that was new to
 * its key's and its team's spend, and counts it in its day's rollups, all in one
 * transaction. A batch posted twice (a retry after a lost commit acknowledgement) changes
 * nothing the second time, so spend totals stay the exact sums of the logged rows.
 *
 * <p>Keys and teams are updated in hash and id order, so two ledgers posting at once take
 * their row locks in the same order rather than each waiting on the other.
 *
 * <p>Blocks on the database: call it from a virtual thread or a worker, never from an
 * event loop. Failures are {@link StoreException}s; after one, nothing of the batch is
 * written and the whole batch may be posted again.
 */
public final class SpendLedger implements SpendSink {
    private final Database database;
    private final KeyRepository keys;
    private final TeamRepository teams;

    public SpendLedger(Database database) {
        this.database = Objects.requireNonNull(database, "database");
        this.keys = new KeyRepository(database);
        this.teams = new TeamRepository(database);
    }

    /** @return how many rows were new, and so counted */
    @Override
    public int post(List<SpendRow> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        return database.inWriterTransaction("post spend", connection -> {
            boolean[] added = SpendRepository.insert(connection, database.engine(), rows);
            Map<String, BigDecimal> byKey = new TreeMap<>();
            Map<String, BigDecimal> byTeam = new TreeMap<>();
            DailyRollup rollup = new DailyRollup();
            int count = 0;
            for (int i = 0; i < added.length; i++) {
                if (!added[i]) {
                    continue;
                }
                count++;
                SpendRow row = rows.get(i);
                rollup.add(row);
                row.keyHash().ifPresent(hash -> byKey.merge(hash, row.cost(), BigDecimal::add));
                row.teamId().ifPresent(team -> byTeam.merge(team, row.cost(), BigDecimal::add));
            }
            for (Map.Entry<String, BigDecimal> key : byKey.entrySet()) {
                keys.addSpend(connection, key.getKey(), key.getValue());
            }
            for (Map.Entry<String, BigDecimal> team : byTeam.entrySet()) {
                teams.addSpend(connection, team.getKey(), team.getValue());
            }
            DailySpendRepository.add(connection, database.engine(), rollup.increments());
            return count;
        });
    }
}
