package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The daily rollups, {@code sluice_daily_spend}: written by the {@link SpendLedger} in the
 * transaction that logs the rows they count, read by reports.
 *
 * <p>An increment is an upsert: PostgreSQL's {@code INSERT ... ON CONFLICT DO UPDATE}, which
 * two replicas may run at once for the same day and name; H2's {@code MERGE}, where one
 * process writes.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class DailySpendRepository {
    private static final String COLUMNS = "spend_date, dimension, name, requests, successes, failures, prompt_tokens, "
            + "completion_tokens, cached_tokens, spend";
    private static final String POSTGRES_UPSERT = "INSERT INTO sluice_daily_spend AS d (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dimension, name, spend_date) DO UPDATE SET "
            + "requests = d.requests + EXCLUDED.requests, successes = d.successes + EXCLUDED.successes, "
            + "failures = d.failures + EXCLUDED.failures, prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens, "
            + "completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens, "
            + "cached_tokens = d.cached_tokens + EXCLUDED.cached_tokens, spend = d.spend + EXCLUDED.spend";
    private static final String H2_MERGE = "MERGE INTO sluice_daily_spend d USING (VALUES (CAST(? AS DATE), "
            + "CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), "
            + "CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS NUMERIC(30, 12)))) "
            + "AS s(" + COLUMNS + ") ON d.dimension = s.dimension AND d.name = s.name AND d.spend_date = s.spend_date "
            + "WHEN MATCHED THEN UPDATE SET requests = d.requests + s.requests, successes = d.successes + s.successes, "
            + "failures = d.failures + s.failures, prompt_tokens = d.prompt_tokens + s.prompt_tokens, "
            + "completion_tokens = d.completion_tokens + s.completion_tokens, "
            + "cached_tokens = d.cached_tokens + s.cached_tokens, spend = d.spend + s.spend "
            + "WHEN NOT MATCHED THEN INSERT (" + COLUMNS + ") VALUES (s.spend_date, s.dimension, s.name, s.requests, "
            + "s.successes, s.failures, s.prompt_tokens, s.completion_tokens, s.cached_tokens, s.spend)";

    private final Database database;

    public DailySpendRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** Adds the increments on a connection the caller holds, in its transaction. */
    static void add(Connection connection, Engine engine, Collection<DailySpend> increments) throws SQLException {
        if (increments.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                engine == Engine.POSTGRESQL ? POSTGRES_UPSERT : H2_MERGE)) {
            for (DailySpend increment : increments) {
                statement.setDate(1, Date.valueOf(increment.day()));
                statement.setString(2, increment.dimension().column());
                statement.setString(3, increment.name());
                statement.setLong(4, increment.requests());
                statement.setLong(5, increment.successes());
                statement.setLong(6, increment.failures());
                statement.setLong(7, increment.promptTokens());
                statement.setLong(8, increment.completionTokens());
                statement.setLong(9, increment.cachedTokens());
                statement.setBigDecimal(10, increment.spend());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** Every name's rollups of {@code dimension} from {@code from} to {@code to}, both included, by day then name. */
    public List<DailySpend> between(SpendDimension dimension, LocalDate from, LocalDate to) {
        return database.withConnection("read daily spend", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM sluice_daily_spend WHERE spend_date >= ? AND spend_date <= ? AND dimension = ? ORDER BY spend_date, name")) {
                statement.setDate(1, Date.valueOf(from));
                statement.setDate(2, Date.valueOf(to));
                statement.setString(3, dimension.column());
                return read(statement);
            }
        });
    }

    /** One name's rollups from {@code from} to {@code to}, both included, by day. */
    public List<DailySpend> of(SpendDimension dimension, String name, LocalDate from, LocalDate to) {
        return database.withConnection("read daily spend", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS
                    + " FROM sluice_daily_spend WHERE dimension = ? AND name = ? AND spend_date >= ? AND spend_date <= ? ORDER BY spend_date")) {
                statement.setString(1, dimension.column());
                statement.setString(2, name);
                statement.setDate(3, Date.valueOf(from));
                statement.setDate(4, Date.valueOf(to));
                return read(statement);
            }
        });
    }

    private static List<DailySpend> read(PreparedStatement statement) throws SQLException {
        List<DailySpend> days = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                BigDecimal spend = rows.getBigDecimal("spend");
                days.add(new DailySpend(rows.getDate("spend_date").toLocalDate(), SpendDimension.ofColumn(rows.getString("dimension")),
                        rows.getString("name"), rows.getLong("requests"), rows.getLong("successes"),
                        rows.getLong("failures"), rows.getLong("prompt_tokens"), rows.getLong("completion_tokens"),
                        rows.getLong("cached_tokens"), spend));
            }
        }
        return days;
    }
}
