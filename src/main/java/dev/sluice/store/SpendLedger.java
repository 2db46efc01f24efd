package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Posts finished calls: logs their spend rows, adds the cost of each row that was new to
 * its key's and its team's spend (and its user's, organization's and customer's: {@link OwnerSpend}), and counts it in its day's rollups, all in one
 * transaction, so spend totals stay the exact sums of the logged rows.
 *
 * <p><b>Posted twice, counted once.</b> On PostgreSQL the log has a row per call and a row
 * whose call id is logged is skipped, whoever posts it. The embedded store logs a batch as
 * {@link SpendBlocks blocks}, with no index by call id to ask; it keeps instead the batch's
 * {@link JournalMark} ({@link SpendMarks}), and a post whose mark is already covered changes
 * nothing. A post without a mark ({@link #post(List)}: not the journal's) is logged there as
 * earlier versions logged every row, one per call in {@code sluice_spend_logs}, idempotent by
 * call id; a marked post looks its rows up there ({@link RowLog}), for the calls that started
 * no later than the newest row there, and counts none twice.
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
    private final RowLog rowLog;
    private final OwnerSpend owners;
    private final Clock clock;

    /** @param clock when a journal mark was kept, as the gateway's time says */
    public SpendLedger(Database database, Clock clock) {
        this.database = Objects.requireNonNull(database, "database");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.keys = new KeyRepository(database);
        this.teams = new TeamRepository(database);
        this.rowLog = new RowLog();
        this.owners = new OwnerSpend(database);
    }

    /** Posts rows that carry no journal mark, one row per call: idempotent by call id. */
    public int post(List<SpendRow> rows) {
        return post(rows, null);
    }

    /** @return how many rows were new, and so counted */
    @Override
    public int post(List<SpendRow> rows, JournalMark through) {
        if (rows.isEmpty()) {
            return 0;
        }
        return database.inWriterTransaction("post spend", connection -> {
            List<SpendRow> fresh = database.engine() == Engine.POSTGRESQL || through == null
                    ? logOnePerCall(connection, rows)
                    : logAsBlocks(connection, rows, through);
            Map<String, BigDecimal> byKey = new TreeMap<>();
            Map<String, BigDecimal> byTeam = new TreeMap<>();
            DailyRollup rollup = new DailyRollup();
            for (SpendRow row : fresh) {
                rollup.add(row);
                row.accounts().keyHash().ifPresent(hash -> byKey.merge(hash, row.cost(), BigDecimal::add));
                row.accounts().teamId().ifPresent(team -> byTeam.merge(team, row.cost(), BigDecimal::add));
            }
            for (Map.Entry<String, BigDecimal> key : byKey.entrySet()) {
                keys.addSpend(connection, key.getKey(), key.getValue());
            }
            for (Map.Entry<String, BigDecimal> team : byTeam.entrySet()) {
                teams.addSpend(connection, team.getKey(), team.getValue());
            }
            owners.add(connection, fresh, byTeam);
            DailySpendRepository.add(connection, database.engine(), rollup.increments());
            return fresh.size();
        });
    }

    @Override
    public Optional<JournalMark> shippedThrough(String journal) {
        if (database.engine() == Engine.POSTGRESQL) {
            return Optional.empty();
        }
        return database.withConnection("read spend journal mark", connection -> SpendMarks.of(connection, journal));
    }

    /** Logs the rows one per call, skipping calls already logged; the rows that were new. */
    private List<SpendRow> logOnePerCall(Connection connection, List<SpendRow> rows) throws SQLException {
        boolean[] added = SpendRepository.insert(connection, database.engine(), rows);
        List<SpendRow> fresh = new ArrayList<>(rows.size());
        for (int i = 0; i < added.length; i++) {
            if (added[i]) {
                fresh.add(rows.get(i));
            }
        }
        rowLog.logged(fresh);
        return fresh;
    }

    /** Logs the rows as blocks and moves the journal's mark past them; none when the mark was there already. */
    private List<SpendRow> logAsBlocks(Connection connection, List<SpendRow> rows, JournalMark through)
            throws SQLException {
        if (SpendMarks.of(connection, through.journal()).filter(kept -> kept.covers(through)).isPresent()) {
            return List.of();
        }
        List<SpendRow> fresh = rowLog.notIn(connection, rows);
        SpendBlocks.write(connection, fresh);
        SpendMarks.set(connection, through, clock.instant());
        return fresh;
    }
}
