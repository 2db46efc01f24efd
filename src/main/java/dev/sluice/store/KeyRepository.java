package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Virtual keys in {@code sluice_keys}, by the SHA-256 of the key. Every statement but the
 * columns' own binding and reading is the same as for teams: {@link BudgetHolderRepository}.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class KeyRepository extends BudgetHolderRepository<VirtualKey> {
    private static final Table TABLE = new Table("sluice_keys", "token_hash", "token_hash, key_alias, key_name, team_id, "
            + "user_id, models, max_budget, budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, "
            + "max_parallel_requests, model_max_budget, model_rpm_limit, model_tpm_limit, metadata, expires_at, created_at, "
            + "blocked, updated_at, aliases", "key");

    public KeyRepository(Database database) {
        super(database, TABLE);
    }

    public Optional<VirtualKey> findByHash(String tokenHash) {
        return findBy("token_hash", tokenHash);
    }

    public Optional<VirtualKey> findByAlias(String keyAlias) {
        return findBy("key_alias", keyAlias);
    }

    /** One page of the keys the filter holds, oldest first (ties by hash). */
    public List<VirtualKey> list(KeyFilter filter, Page page) {
        return list(Where.of(filter), page);
    }

    /** How many keys the filter holds, for a listing's page count. */
    public long count(KeyFilter filter) {
        return count(Where.of(filter));
    }

    @Override
    void bindInsert(PreparedStatement statement, VirtualKey key) throws SQLException {
        statement.setString(1, key.tokenHash());
        int next = bindOwner(statement, 2, key);
        next = bindBudget(statement, next, key, true);
        next = bindKeyLimits(statement, next, key);
        Columns.time(statement, next, key.createdAt());
        statement.setBoolean(next + 1, key.blocked());
        Columns.time(statement, next + 2, key.lifetime().updatedAt());
        statement.setString(next + 3, JsonColumns.write(key.aliases()));
    }

    @Override
    void bindUpdate(PreparedStatement statement, VirtualKey key) throws SQLException {
        int next = bindOwner(statement, 1, key);
        next = bindBudget(statement, next, key, false);
        next = bindKeyLimits(statement, next, key);
        statement.setBoolean(next, key.blocked());
        Columns.time(statement, next + 1, key.lifetime().updatedAt());
        statement.setString(next + 2, JsonColumns.write(key.aliases()));
        statement.setString(next + 3, key.tokenHash());
    }

    /** {@code key_alias, key_name, team_id, user_id} from parameter {@code from}; returns the next index. */
    private static int bindOwner(PreparedStatement statement, int from, VirtualKey key) throws SQLException {
        Columns.text(statement, from, key.keyAlias());
        statement.setString(from + 1, key.keyName());
        Columns.text(statement, from + 2, key.owner().teamId());
        Columns.text(statement, from + 3, key.owner().userId());
        return from + 4;
    }

    /**
     * {@code max_parallel_requests, model_max_budget, model_rpm_limit, model_tpm_limit, metadata,
     * expires_at} from parameter {@code from}; returns the next index.
     */
    private static int bindKeyLimits(PreparedStatement statement, int from, VirtualKey key) throws SQLException {
        Columns.integer(statement, from, key.limits().maxParallelRequests());
        statement.setString(from + 1, JsonColumns.writeBudgets(key.modelLimits().modelMaxBudget()));
        statement.setString(from + 2, JsonColumns.write(key.modelLimits().modelRpmLimit()));
        statement.setString(from + 3, JsonColumns.write(key.modelLimits().modelTpmLimit()));
        statement.setString(from + 4, JsonColumns.write(key.metadata()));
        Columns.time(statement, from + 5, key.lifetime().expiresAt());
        return from + 6;
    }

    @Override
    VirtualKey read(ResultSet row) throws SQLException {
        VirtualKey.Builder key = VirtualKey.builder(row.getString("token_hash"), row.getString("key_name"),
                        Columns.requiredTime(row, "created_at"))
                .keyAlias(Columns.text(row, "key_alias").orElse(null))
                .teamId(Columns.text(row, "team_id").orElse(null))
                .userId(Columns.text(row, "user_id").orElse(null))
                .maxParallelRequests(AccountLimits.boxed(Columns.integer(row, "max_parallel_requests")))
                .modelMaxBudget(JsonColumns.budgets("model_max_budget", row.getString("model_max_budget")))
                .modelRpmLimit(JsonColumns.limits("model_rpm_limit", row.getString("model_rpm_limit")))
                .modelTpmLimit(JsonColumns.limits("model_tpm_limit", row.getString("model_tpm_limit")))
                .expiresAt(Columns.time(row, "expires_at").orElse(null))
                .blocked(row.getBoolean("blocked"))
                .updatedAt(Columns.time(row, "updated_at").orElse(null))
                .aliases(JsonColumns.names("aliases", row.getString("aliases")));
        readBudget(row, key);
        return key.build();
    }
}
