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
    private static final Table TABLE = Table.of("sluice_users", "user_id",
            "user_id, user_email, user_role, max_parallel_requests", "user");

    public UserRepository(Database database) {
        super(database, TABLE);
    }

    /** The first user, oldest first, with that email. */
    public Optional<User> findByEmail(String userEmail) {
        return list(new Where(" WHERE user_email = ?", List.of(userEmail)), Page.of(1, 1)).stream().findFirst();
    }

    @Override
    void bindOwn(PreparedStatement statement, int index, String column, User user) throws SQLException {
        switch (column) {
            case "user_id" -> statement.setString(index, user.userId());
            case "user_email" -> Columns.text(statement, index, user.userEmail());
            case "user_role" -> statement.setString(index, user.userRole());
            case "max_parallel_requests" -> Columns.integer(statement, index, user.limits().maxParallelRequests());
            default -> throw new IllegalArgumentException("column: " + column + " (expected: one of the table's)");
        }
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
