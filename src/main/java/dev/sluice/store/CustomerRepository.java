package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Customers (LiteLLM's end users) in {@code sluice_customers}, by user id: the statements of
 * {@link BudgetHolderRepository} over that table's columns.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class CustomerRepository extends BudgetHolderRepository<Customer> {
    private static final Table TABLE = new Table("sluice_customers", "user_id", "user_id, alias, blocked, models, "
            + "max_budget, budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, metadata, created_at", "customer");

    public CustomerRepository(Database database) {
        super(database, TABLE);
    }

    public Optional<Customer> findById(String userId) {
        return findBy("user_id", userId);
    }

    @Override
    void bindInsert(PreparedStatement statement, Customer customer) throws SQLException {
        statement.setString(1, customer.userId());
        Columns.text(statement, 2, customer.alias());
        statement.setBoolean(3, customer.blocked());
        int next = bindBudget(statement, 4, customer, true);
        statement.setString(next, JsonColumns.write(customer.metadata()));
        Columns.time(statement, next + 1, customer.createdAt());
    }

    @Override
    void bindUpdate(PreparedStatement statement, Customer customer) throws SQLException {
        Columns.text(statement, 1, customer.alias());
        statement.setBoolean(2, customer.blocked());
        int next = bindBudget(statement, 3, customer, false);
        statement.setString(next, JsonColumns.write(customer.metadata()));
        statement.setString(next + 1, customer.userId());
    }

    @Override
    Customer read(ResultSet row) throws SQLException {
        Customer.Builder customer = Customer.builder(row.getString("user_id"), Columns.requiredTime(row, "created_at"))
                .alias(Columns.text(row, "alias").orElse(null))
                .blocked(row.getBoolean("blocked"));
        readBudget(row, customer);
        return customer.build();
    }
}
