package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Virtual keys in {@code sluice_keys}, by the SHA-256 of the key.
 *
 * <p>Spend moves only through {@link #addSpend} and {@link #resetSpend}, each one atomic
 * statement; {@link #update} writes every other field. So a settings change racing with a
 * call's accounting loses neither.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class KeyRepository {
    private static final String COLUMNS = "token_hash, key_alias, key_name, team_id, user_id, models, max_budget, "
            + "budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, max_parallel_requests, "
            + "model_max_budget, model_rpm_limit, model_tpm_limit, metadata, expires_at, created_at, blocked";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM sluice_keys";
    private static final String INSERT = "INSERT INTO sluice_keys (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE = "UPDATE sluice_keys SET key_alias = ?, key_name = ?, team_id = ?, "
            + "user_id = ?, models = ?, max_budget = ?, budget_duration = ?, budget_reset_at = ?, rpm_limit = ?, "
            + "tpm_limit = ?, max_parallel_requests = ?, model_max_budget = ?, model_rpm_limit = ?, "
            + "model_tpm_limit = ?, metadata = ?, expires_at = ?, blocked = ? WHERE token_hash = ?";
    private static final String ADD_SPEND = "UPDATE sluice_keys SET spend = spend + ? WHERE token_hash = ?";
    private static final String RESET_SPEND = "UPDATE sluice_keys SET spend = 0, budget_reset_at = ? "
            + "WHERE token_hash = ? AND (budget_reset_at IS NULL OR budget_reset_at < ?)";

    private final Database database;

    public KeyRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Stores a new key with the spend it holds (zero, for a new key).
     *
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the hash or the alias is already taken
     */
    public void insert(VirtualKey key) {
        database.withConnection("insert key", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
                statement.setString(1, key.tokenHash());
                Columns.text(statement, 2, key.keyAlias());
                statement.setString(3, key.keyName());
                Columns.text(statement, 4, key.teamId());
                Columns.text(statement, 5, key.userId());
                statement.setString(6, JsonColumns.write(key.models()));
                Columns.money(statement, 7, key.maxBudget());
                Columns.text(statement, 8, key.budgetDuration());
                Columns.time(statement, 9, key.budgetResetAt());
                statement.setBigDecimal(10, key.spend());
                Columns.bigint(statement, 11, key.rpmLimit());
                Columns.bigint(statement, 12, key.tpmLimit());
                Columns.integer(statement, 13, key.maxParallelRequests());
                statement.setString(14, JsonColumns.writeBudgets(key.modelMaxBudget()));
                statement.setString(15, JsonColumns.write(key.modelRpmLimit()));
                statement.setString(16, JsonColumns.write(key.modelTpmLimit()));
                statement.setString(17, JsonColumns.write(key.metadata()));
                Columns.time(statement, 18, key.expiresAt());
                Columns.time(statement, 19, key.createdAt());
                statement.setBoolean(20, key.blocked());
                return statement.executeUpdate();
            }
        });
    }

    public Optional<VirtualKey> findByHash(String tokenHash) {
        return database.withConnection("find key", connection -> one(connection, SELECT + " WHERE token_hash = ?", tokenHash));
    }

    public Optional<VirtualKey> findByAlias(String keyAlias) {
        return database.withConnection("find key", connection -> one(connection, SELECT + " WHERE key_alias = ?", keyAlias));
    }

    /**
     * Writes every field of the stored key with the same hash but its spend and creation time.
     *
     * @return false when no key has that hash
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the new alias is another key's
     */
    public boolean update(VirtualKey key) {
        return database.withConnection("update key", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(UPDATE)) {
                Columns.text(statement, 1, key.keyAlias());
                statement.setString(2, key.keyName());
                Columns.text(statement, 3, key.teamId());
                Columns.text(statement, 4, key.userId());
                statement.setString(5, JsonColumns.write(key.models()));
                Columns.money(statement, 6, key.maxBudget());
                Columns.text(statement, 7, key.budgetDuration());
                Columns.time(statement, 8, key.budgetResetAt());
                Columns.bigint(statement, 9, key.rpmLimit());
                Columns.bigint(statement, 10, key.tpmLimit());
                Columns.integer(statement, 11, key.maxParallelRequests());
                statement.setString(12, JsonColumns.writeBudgets(key.modelMaxBudget()));
                statement.setString(13, JsonColumns.write(key.modelRpmLimit()));
                statement.setString(14, JsonColumns.write(key.modelTpmLimit()));
                statement.setString(15, JsonColumns.write(key.metadata()));
                Columns.time(statement, 16, key.expiresAt());
                statement.setBoolean(17, key.blocked());
                statement.setString(18, key.tokenHash());
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** @return false when no key has that hash */
    public boolean delete(String tokenHash) {
        return database.withConnection("delete key", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_keys WHERE token_hash = ?")) {
                statement.setString(1, tokenHash);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** One page of the keys the filter holds, oldest first (ties by hash). */
    public List<VirtualKey> list(KeyFilter filter, Page page) {
        Where where = Where.of(filter);
        return database.withConnection("list keys", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    SELECT + where.sql() + " ORDER BY created_at, token_hash LIMIT ? OFFSET ?")) {
                int next = where.bind(statement);
                statement.setInt(next, page.size());
                statement.setLong(next + 1, page.offset());
                return all(statement);
            }
        });
    }

    public List<VirtualKey> list(Page page) {
        return list(KeyFilter.ALL, page);
    }

    /** How many keys the filter holds, for a listing's page count. */
    public long count(KeyFilter filter) {
        Where where = Where.of(filter);
        return database.withConnection("count keys", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM sluice_keys" + where.sql())) {
                where.bind(statement);
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /**
     * Adds {@code amount} dollars to the key's spend in one atomic statement, so concurrent
     * additions all count.
     *
     * @return false when no key has that hash
     */
    public boolean addSpend(String tokenHash, BigDecimal amount) {
        BigDecimal dollars = Money.nonNegative("amount", amount);
        return database.withConnection("add key spend", connection -> addSpend(connection, tokenHash, dollars));
    }

    static boolean addSpend(Connection connection, String tokenHash, BigDecimal amount) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(ADD_SPEND)) {
            statement.setBigDecimal(1, amount);
            statement.setString(2, tokenHash);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Sets the key's spend to zero and its next reset to {@code nextResetAt}, unless its
     * recorded next reset is already at or after {@code nextResetAt}: the same reset run
     * twice (by two replicas, or a retry) resets once.
     *
     * @return true when the spend was reset
     */
    public boolean resetSpend(String tokenHash, Instant nextResetAt) {
        Instant next = Columns.micros(nextResetAt);
        return database.withConnection("reset key spend", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(RESET_SPEND)) {
                Columns.time(statement, 1, next);
                statement.setString(2, tokenHash);
                Columns.time(statement, 3, next);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Keys whose budget reset is due at {@code now}, soonest first, at most {@code limit}. */
    public List<VirtualKey> dueForReset(Instant now, int limit) {
        Page.checkLimit(limit);
        return database.withConnection("list keys due for reset", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    SELECT + " WHERE budget_reset_at <= ? ORDER BY budget_reset_at, token_hash LIMIT ?")) {
                Columns.time(statement, 1, now);
                statement.setInt(2, limit);
                return all(statement);
            }
        });
    }

    private static Optional<VirtualKey> one(Connection connection, String sql, String value) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, value);
            List<VirtualKey> keys = all(statement);
            return keys.isEmpty() ? Optional.empty() : Optional.of(keys.getFirst());
        }
    }

    private static List<VirtualKey> all(PreparedStatement statement) throws SQLException {
        List<VirtualKey> keys = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                keys.add(read(rows));
            }
        }
        return keys;
    }

    private static VirtualKey read(ResultSet row) throws SQLException {
        return new VirtualKey(
                row.getString("token_hash"),
                Columns.text(row, "key_alias"),
                row.getString("key_name"),
                Columns.text(row, "team_id"),
                Columns.text(row, "user_id"),
                JsonColumns.strings("models", row.getString("models")),
                Columns.money(row, "max_budget"),
                Columns.text(row, "budget_duration"),
                Columns.time(row, "budget_reset_at"),
                Money.of(row.getBigDecimal("spend")),
                Columns.bigint(row, "rpm_limit"),
                Columns.bigint(row, "tpm_limit"),
                Columns.integer(row, "max_parallel_requests"),
                JsonColumns.budgets("model_max_budget", row.getString("model_max_budget")),
                JsonColumns.limits("model_rpm_limit", row.getString("model_rpm_limit")),
                JsonColumns.limits("model_tpm_limit", row.getString("model_tpm_limit")),
                JsonColumns.object("metadata", row.getString("metadata")),
                Columns.time(row, "expires_at"),
                Columns.requiredTime(row, "created_at"),
                row.getBoolean("blocked"));
    }

    /** The WHERE clause of a filter and its parameters, in order. */
    private record Where(String sql, List<String> values) {
        static Where of(KeyFilter filter) {
            List<String> conditions = new ArrayList<>();
            List<String> values = new ArrayList<>();
            filter.teamId().ifPresent(team -> {
                conditions.add("team_id = ?");
                values.add(team);
            });
            filter.userId().ifPresent(user -> {
                conditions.add("user_id = ?");
                values.add(user);
            });
            return new Where(conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions), values);
        }

        /** Binds the values from parameter 1; returns the next parameter's index. */
        int bind(PreparedStatement statement) throws SQLException {
            for (int i = 0; i < values.size(); i++) {
                statement.setString(i + 1, values.get(i));
            }
            return values.size() + 1;
        }
    }
}
