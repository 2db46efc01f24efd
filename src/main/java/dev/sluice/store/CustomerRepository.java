package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Customers (LiteLLM's end users) in {@code sluice_customers}, by user id: the statements of
 * {@link BudgetHolderRepository} over that table's columns.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class CustomerRepository extends BudgetHolderRepository<Customer> {
    private static final Table TABLE = Table.of("sluice_customers", "user_id", "user_id, alias, blocked", "customer");

    public CustomerRepository(Database database) {
        super(database, TABLE);
    }

    @Override
    void bindOwn(PreparedStatement statement, int index, String column, Customer customer) throws SQLException {
        switch (column) {
            case "user_id" -> statement.setString(index, customer.userId());
            case "alias" -> Columns.text(statement, index, customer.alias());
            case "blocked" -> statement.setBoolean(index, customer.blocked());
            default -> throw new IllegalArgumentException("column: " + column + " (expected: one of the table's)");
        }
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
