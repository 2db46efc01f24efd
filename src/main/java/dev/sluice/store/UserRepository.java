package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Internal users in {@code sluice_users}, by user id. Every statement but the columns' own
 * binding and reading is the same as for keys and teams: {@link BudgetHolderRepository}.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class UserRepository extends BudgetHolderRepository<User> {
    private static final Table TABLE = new Table("sluice_users", "user_id", "user_id, user_email, user_role, models, "
            + "max_budget, budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, max_parallel_requests, metadata, "
            + "created_at", "user");

    public UserRepository(Database database) {
        super(database, TABLE);
    }

    public Optional<User> findById(String userId) {
        return findBy("user_id", userId);
    }

    /** The first user, oldest first, with that email. */
    public Optional<User> findByEmail(String userEmail) {
        return list(new Where(" WHERE user_email = ?", List.of(userEmail)), Page.of(1, 1)).stream().findFirst();
    }

    public long count() {
        return count(Where.NONE);
    }

    @Override
    void bindInsert(PreparedStatement statement, User user) throws SQLException {
        statement.setString(1, user.userId());
        int next = bindProfile(statement, 2, user);
        next = bindBudget(statement, next, user, true);
        next = bindRest(statement, next, user);
        Columns.time(statement, next, user.createdAt());
    }

    @Override
    void bindUpdate(PreparedStatement statement, User user) throws SQLException {
        int next = bindProfile(statement, 1, user);
        next = bindBudget(statement, next, user, false);
        next = bindRest(statement, next, user);
        statement.setString(next, user.userId());
    }

    private static int bindProfile(PreparedStatement statement, int from, User user) throws SQLException {
        Columns.text(statement, from, user.userEmail());
        statement.setString(from + 1, user.userRole());
        return from + 2;
    }

    private static int bindRest(PreparedStatement statement, int from, User user) throws SQLException {
        Columns.integer(statement, from, user.limits().maxParallelRequests());
        statement.setString(from + 1, JsonColumns.write(user.metadata()));
        return from + 2;
    }

    @Override
    User read(ResultSet row) throws SQLException {
        User.Builder user = User.builder(row.getString("user_id"), Columns.requiredTime(row, "created_at"))
                .userEmail(Columns.text(row, "user_email").orElse(null))
                .userRole(row.getString("user_role"))
                .maxParallelRequests(AccountLimits.boxed(Columns.integer(row, "max_parallel_requests")));
        readBudget(row, user);
        return user.build();
    }
}
