package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The spend log: one entry per call, kept for the retention period; reports read the
 * {@link DailySpendRepository daily rollups}. On PostgreSQL a row per call in
 * {@code sluice_spend_logs}, by call id; on the embedded store {@link SpendBlocks blocks} of
 * rows, one or more per shipped batch, beside any rows an earlier version logged one per
 * call. {@link SpendLedger} writes it; this reads and prunes it.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class SpendRepository {
    static final String COLUMNS = "call_id, key_hash, team_id, user_id, model_group, deployment_id, "
            + "prompt_tokens, completion_tokens, total_tokens, cost, status, duration_ms, started_at, "
            + "cached_tokens, request_tags, cache_hit, cache_key, end_user";
    private static final String INSERT = "INSERT INTO sluice_spend_logs (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
    private static final String KEY_MODEL_SUM = "SELECT COALESCE(SUM(cost), 0) FROM sluice_spend_logs "
            + "WHERE key_hash = ? AND model_group = ? AND started_at >= ? AND started_at < ? "
            + "UNION ALL SELECT COALESCE(SUM(spend), 0) FROM sluice_daily_spend "
            + "WHERE dimension = 'key_model' AND name = ? AND spend_date >= ?";

    private final Database database;

    public SpendRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Logs each row unless its call is logged, one row per call; element {@code i} tells whether
     * row {@code i} was new. On H2 a batch of single-row inserts, whose counts tell which rows
     * were new.
     */
    static boolean[] insert(Connection connection, Engine engine, List<SpendRow> rows) throws SQLException {
        return engine == Engine.POSTGRESQL ? PostgresSpendInsert.insert(connection, rows) : insertEach(connection, rows);
    }

    private static boolean[] insertEach(Connection connection, List<SpendRow> rows) throws SQLException {
        boolean[] added = new boolean[rows.size()];
        try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
            for (SpendRow row : rows) {
                bind(statement, row);
                statement.addBatch();
            }
            int[] counts = statement.executeBatch();
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == Statement.SUCCESS_NO_INFO) {
                    throw new SQLException("the driver did not say which spend rows were new");
                }
                added[i] = counts[i] == 1;
            }
        }
        return added;
    }

    private static void bind(PreparedStatement statement, SpendRow row) throws SQLException {
        statement.setString(1, row.callId());
        Columns.text(statement, 2, row.accounts().keyHash());
        Columns.text(statement, 3, row.accounts().teamId());
        Columns.text(statement, 4, row.accounts().userId());
        statement.setString(5, row.modelGroup());
        Columns.text(statement, 6, row.deploymentId());
        statement.setLong(7, row.tokens().promptTokens());
        statement.setLong(8, row.tokens().completionTokens());
        statement.setLong(9, row.tokens().totalTokens());
        statement.setBigDecimal(10, row.cost());
        statement.setInt(11, row.status());
        statement.setLong(12, row.durationMs());
        Columns.time(statement, 13, row.startedAt());
        statement.setLong(14, row.tokens().cachedTokens());
        Columns.text(statement, 15, row.tags().isEmpty() ? Optional.empty() : Optional.of(JsonColumns.write(row.tags())));
        statement.setBoolean(16, row.cacheHit());
        Columns.text(statement, 17, row.cacheKey());
        Columns.text(statement, 18, row.accounts().endUser());
    }

    /** The call's row; on the embedded store this reads every block, so it suits a check, not a request. */
    public Optional<SpendRow> find(String callId) {
        return Optional.ofNullable(find(Set.of(callId)).get(callId));
    }

    /** The rows of those of {@code callIds} that are logged, by call id, in one pass over the log. */
    public Map<String, SpendRow> find(Set<String> callIds) {
        return database.withConnection("find spend rows", connection -> {
            Map<String, SpendRow> found = new HashMap<>();
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT " + COLUMNS + " FROM sluice_spend_logs WHERE call_id = ?")) {
                for (String callId : callIds) {
                    statement.setString(1, callId);
                    try (ResultSet rows = statement.executeQuery()) {
                        if (rows.next()) {
                            found.put(callId, read(rows));
                        }
                    }
                }
            }
            if (database.engine() == Engine.H2 && found.size() < callIds.size()) {
                SpendBlocks.scanAll(connection, row -> {
                    if (callIds.contains(row.callId())) {
                        found.put(row.callId(), row);
                    }
                });
            }
            return found;
        });
    }

    /**
     * Dollars the key spent on the model group in calls that started at or after {@code since}:
     * what a {@code model_max_budget} entry is held against. Whole UTC days after {@code since}'s
     * own come from the daily rollups, which outlive the log's rows; the rest of {@code since}'s
     * day from the log's rows, while the log keeps them ({@code keptSince}: the oldest start its
     * rows are sure to have); before that, {@code since}'s whole day from the rollups, which may
     * count up to a day more than the period holds, never less. Read from one snapshot, so a post
     * landing meanwhile is counted in both parts or neither.
     */
    public BigDecimal sumCostByKeyAndModelGroup(String keyHash, String modelGroup, Instant since, Instant keptSince) {
        LocalDate day = LocalDate.ofInstant(since, ZoneOffset.UTC);
        Instant nextDay = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        boolean fromLog = !since.isBefore(keptSince);
        Instant from = fromLog ? since : nextDay;
        return database.inSnapshot("sum key spend on a model group", connection -> {
            BigDecimal sum = Money.ZERO;
            try (PreparedStatement statement = connection.prepareStatement(KEY_MODEL_SUM)) {
                statement.setString(1, keyHash);
                statement.setString(2, modelGroup);
                Columns.time(statement, 3, from);
                Columns.time(statement, 4, nextDay);
                statement.setString(5, SpendDimension.keyModel(keyHash, modelGroup));
                statement.setDate(6, java.sql.Date.valueOf(fromLog ? day.plusDays(1) : day));
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        sum = sum.add(Money.of(rows.getBigDecimal(1)));
                    }
                }
            }
            if (database.engine() == Engine.H2 && from.isBefore(nextDay)) {
                BigDecimal[] blocks = {Money.ZERO};
                SpendBlocks.scan(connection, from, nextDay, row -> {
                    if (row.accounts().keyHash().filter(keyHash::equals).isPresent() && row.modelGroup().equals(modelGroup)) {
                        blocks[0] = blocks[0].add(row.cost());
                    }
                });
                sum = sum.add(blocks[0]);
            }
            return Money.of(sum);
        });
    }

    /**
     * Deletes the rows of calls that started before {@code cutoff}, {@code chunk} rows per
     * transaction so that no one delete holds the log for long, until none is left. Their
     * rollups stay. A block of the embedded store goes once all its rows started before
     * {@code cutoff}: a row may stay as long as the longest call in its block after that.
     *
     * @return how many rows were deleted
     */
    public long deleteStartedBefore(Instant cutoff, int chunk) {
        long deleted = inChunksUntilNone("prune spend rows", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_spend_logs WHERE "
                    + "call_id IN (SELECT call_id FROM sluice_spend_logs WHERE started_at < ? LIMIT ?)")) {
                Columns.time(statement, 1, cutoff);
                statement.setInt(2, chunk);
                return statement.executeUpdate();
            }
        });
        if (database.engine() == Engine.H2) {
            // A block goes whole, once its newest row is old enough; a chunk of blocks holds
            // about as many rows as a chunk of rows.
            deleted += inChunksUntilNone("prune spend blocks",
                    connection -> SpendBlocks.deleteStartedBefore(connection, cutoff, Math.max(1, chunk / 1000)));
        }
        return deleted;
    }

    /** Runs {@code chunk}, a transaction each, until one deletes nothing; how many rows went in all. */
    private long inChunksUntilNone(String operation, Database.SqlWork<Integer> chunk) {
        long deleted = 0;
        while (true) {
            int batch = database.inTransaction(operation, chunk);
            deleted += batch;
            // Until a chunk finds nothing: a replica pruning at the same moment may have taken
            // part of this one's chunk, so a short chunk does not mean the old rows are gone.
            if (batch == 0) {
                return deleted;
            }
        }
    }

    /** How many calls are logged. */
    public long count() {
        return database.withConnection("count spend rows", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM sluice_spend_logs");
                    ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1) + (database.engine() == Engine.H2 ? SpendBlocks.count(connection) : 0);
            }
        });
    }

    private static List<String> tags(Optional<String> column) throws SQLException {
        return column.isEmpty() ? List.of() : JsonColumns.strings("request_tags", column.get());
    }

    static SpendRow read(ResultSet row) throws SQLException {
        return new SpendRow(
                row.getString("call_id"),
                new SpendAccounts(Columns.text(row, "key_hash"), Columns.text(row, "team_id"), Columns.text(row, "user_id"),
                        Columns.text(row, "end_user")),
                row.getString("model_group"),
                Columns.text(row, "deployment_id"),
                new SpendTokens(row.getLong("prompt_tokens"), row.getLong("completion_tokens"), row.getLong("total_tokens"),
                        row.getLong("cached_tokens")),
                Money.of(row.getBigDecimal("cost")),
                row.getInt("status"),
                row.getLong("duration_ms"),
                Columns.requiredTime(row, "started_at"),
                tags(Columns.text(row, "request_tags")),
                row.getBoolean("cache_hit"),
                Columns.text(row, "cache_key"));
    }
}
