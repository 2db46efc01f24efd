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
    private static final Table TABLE = Table.of("sluice_keys", "token_hash", "token_hash, key_alias, "
            + "key_name, team_id, user_id, max_parallel_requests, model_max_budget, model_rpm_limit, model_tpm_limit, expires_at, "
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
    void bindOwn(PreparedStatement statement, int index, String column, VirtualKey key) throws SQLException {
        switch (column) {
            case "token_hash" -> statement.setString(index, key.tokenHash());
            case "key_alias" -> Columns.text(statement, index, key.keyAlias());
            case "key_name" -> statement.setString(index, key.keyName());
            case "team_id" -> Columns.text(statement, index, key.owner().teamId());
            case "user_id" -> Columns.text(statement, index, key.owner().userId());
            case "max_parallel_requests" -> Columns.integer(statement, index, key.limits().maxParallelRequests());
            case "model_max_budget" -> statement.setString(index, JsonColumns.writeBudgets(key.modelLimits().modelMaxBudget()));
            case "model_rpm_limit" -> statement.setString(index, JsonColumns.write(key.modelLimits().modelRpmLimit()));
            case "model_tpm_limit" -> statement.setString(index, JsonColumns.write(key.modelLimits().modelTpmLimit()));
            case "expires_at" -> Columns.time(statement, index, key.lifetime().expiresAt());
            case "blocked" -> statement.setBoolean(index, key.blocked());
            case "updated_at" -> Columns.time(statement, index, key.lifetime().updatedAt());
            case "aliases" -> statement.setString(index, JsonColumns.write(key.aliases()));
            default -> throw new IllegalArgumentException("column: " + column + " (expected: one of the table's)");
        }
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
