package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A table of {@link BudgetHolder}s, keys or teams, by their id, and the statements both
 * tables answer alike: inserting, updating, finding, listing, counting and deleting rows,
 * and moving spend. A subclass names its table and binds and reads its own columns.
 *
 * <p>Spend moves only through {@link #addSpend} and {@link #resetSpend}, each one atomic
 * statement; {@link #update} writes every other field but the creation time. So a settings
 * change racing with a call's accounting loses neither.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 *
 * @param <T> the record a row holds
 */
public abstract sealed class BudgetHolderRepository<T extends BudgetHolder> permits KeyRepository, TeamRepository,
        UserRepository, OrganizationRepository, CustomerRepository {

    /**
     * Where a subclass's table is.
     *
     * @param name    the table, e.g. {@code sluice_keys}
     * @param id      the id column, e.g. {@code token_hash}
     * @param columns every column, in the order an insert binds them; an update binds the
     *                same order without the id, {@code spend} and {@code created_at}, then the id
     * @param noun    what a row is, for the operation a failure names: {@code key} gives
     *                {@code find key}, {@code list keys}
     */
    record Table(String name, String id, String columns, String noun) {
        /** The columns of every holder's table, which this class binds and {@link #readBudget} reads. */
        static final String SHARED_COLUMNS = "models, max_budget, budget_duration, budget_reset_at, spend, rpm_limit, "
                + "tpm_limit, metadata, created_at";

        /** A holder's table: {@code ownColumns}, bound by the subclass, then {@link #SHARED_COLUMNS}. */
        static Table of(String name, String id, String ownColumns, String noun) {
            return new Table(name, id, ownColumns + ", " + SHARED_COLUMNS, noun);
        }

        String select() {
            return "SELECT " + columns + " FROM " + name;
        }

        String insert() {
            return "INSERT INTO " + name + " (" + columns + ") VALUES ("
                    + names().stream().map(column -> "?").collect(Collectors.joining(", ")) + ")";
        }

        String update() {
            List<String> set = updated();
            return "UPDATE " + name + " SET " + set.subList(0, set.size() - 1).stream()
                    .map(column -> column + " = ?")
                    .collect(Collectors.joining(", ")) + " WHERE " + id + " = ?";
        }

        /** The columns an insert binds, in order. */
        List<String> names() {
            return Arrays.stream(columns.split(",")).map(String::strip).toList();
        }

        /** The columns an update binds, in order: every one but the id, {@code spend} and {@code created_at}, then the id. */
        List<String> updated() {
            List<String> set = new ArrayList<>(names().stream()
                    .filter(column -> !column.equals(id) && !column.equals("spend") && !column.equals("created_at"))
                    .toList());
            set.add(id);
            return set;
        }
    }

    private final Database database;
    private final Table table;
    private final String insert;
    private final String update;

    BudgetHolderRepository(Database database, Table table) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = table;
        this.insert = table.insert();
        this.update = table.update();
    }

    /**
     * Binds {@code column}, one of the subclass's own columns (every one but those of
     * {@link #bindColumn}), to parameter {@code index}.
     */
    abstract void bindOwn(PreparedStatement statement, int index, String column, T holder) throws SQLException;

    /** Reads the row the result set is on. */
    abstract T read(ResultSet row) throws SQLException;

    /**
     * Stores a new row with the spend it holds (zero, for a new one).
     *
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the id or another unique value (a key's alias) is already taken
     */
    public void insert(T holder) {
        database.withConnection("insert " + table.noun(), connection -> {
            try (PreparedStatement statement = connection.prepareStatement(insert)) {
                bindAll(statement, table.names(), holder);
                return statement.executeUpdate();
            }
        });
    }

    /**
     * Writes every field of the stored row with the same id but its spend and creation time.
     *
     * @return false when no row has that id
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        a unique value (a key's alias) is another row's
     */
    public boolean update(T holder) {
        return database.withConnection("update " + table.noun(), connection -> {
            try (PreparedStatement statement = connection.prepareStatement(update)) {
                bindAll(statement, table.updated(), holder);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** The row with that id. */
    public Optional<T> findById(String id) {
        return findBy(table.id(), id);
    }

    /** How many rows there are. */
    public long count() {
        return count(Where.NONE);
    }

    /** One page of the rows, oldest first (ties by id). */
    public List<T> list(Page page) {
        return list(Where.NONE, page);
    }

    /**
     * Deletes the row with that id. A team's keys are not deleted with it: they keep its id
     * until they are changed or deleted.
     *
     * @return false when no row has that id
     */
    public boolean delete(String id) {
        return database.withConnection("delete " + table.noun(), connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM " + table.name() + " WHERE " + table.id() + " = ?")) {
                statement.setString(1, id);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /**
     * Adds {@code amount} dollars to the spend in one atomic statement, so concurrent
     * additions all count.
     *
     * @return false when no row has that id
     */
    public boolean addSpend(String id, BigDecimal amount) {
        BigDecimal dollars = Money.nonNegative("amount", amount);
        return database.withConnection("add " + table.noun() + " spend", connection -> addSpend(connection, id, dollars));
    }

    /** {@link #addSpend(String, BigDecimal)} on a connection the caller holds, in its transaction. */
    boolean addSpend(Connection connection, String id, BigDecimal amount) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE " + table.name() + " SET spend = spend + ? WHERE " + table.id() + " = ?")) {
            statement.setBigDecimal(1, amount);
            statement.setString(2, id);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Sets the spend to zero and the next reset to {@code nextResetAt}, unless the recorded
     * next reset is already at or after {@code nextResetAt}: the same reset run twice (by two
     * replicas, or a retry) resets once.
     *
     * @return true when the spend was reset
     */
    public boolean resetSpend(String id, Instant nextResetAt) {
        Instant next = Columns.micros(nextResetAt);
        return database.withConnection("reset " + table.noun() + " spend", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("UPDATE " + table.name()
                    + " SET spend = 0, budget_reset_at = ? WHERE " + table.id()
                    + " = ? AND (budget_reset_at IS NULL OR budget_reset_at < ?)")) {
                Columns.time(statement, 1, next);
                statement.setString(2, id);
                Columns.time(statement, 3, next);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Rows whose budget reset is due at {@code now}, soonest first, at most {@code limit}. */
    public List<T> dueForReset(Instant now, int limit) {
        Page.checkLimit(limit);
        return database.withConnection("list " + table.noun() + "s due for reset", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(table.select()
                    + " WHERE budget_reset_at <= ? ORDER BY budget_reset_at, " + table.id() + " LIMIT ?")) {
                Columns.time(statement, 1, now);
                statement.setInt(2, limit);
                return all(statement);
            }
        });
    }

    /** The row whose {@code column} holds {@code value}: its id, or another unique column. */
    Optional<T> findBy(String column, String value) {
        return database.withConnection("find " + table.noun(), connection -> {
            try (PreparedStatement statement = connection.prepareStatement(table.select() + " WHERE " + column + " = ?")) {
                statement.setString(1, value);
                List<T> found = all(statement);
                return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
            }
        });
    }

    /** One page of the rows {@code where} keeps, oldest first (ties by id). */
    List<T> list(Where where, Page page) {
        return database.withConnection("list " + table.noun() + "s", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    table.select() + where.sql() + " ORDER BY created_at, " + table.id() + " LIMIT ? OFFSET ?")) {
                int next = where.bind(statement);
                statement.setInt(next, page.size());
                statement.setLong(next + 1, page.offset());
                return all(statement);
            }
        });
    }

    /** How many rows {@code where} keeps, for a listing's page count. */
    long count(Where where) {
        return database.withConnection("count " + table.noun() + "s", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM " + table.name() + where.sql())) {
                where.bind(statement);
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                    return rows.getLong(1);
                }
            }
        });
    }

    /** Binds {@code columns} in order, from parameter 1. */
    private void bindAll(PreparedStatement statement, List<String> columns, T holder) throws SQLException {
        for (int index = 1; index <= columns.size(); index++) {
            bindColumn(statement, index, columns.get(index - 1), holder);
        }
    }

    /** Binds a column every holder has, or else one of the subclass's own, to parameter {@code index}. */
    private void bindColumn(PreparedStatement statement, int index, String column, T holder) throws SQLException {
        AccountBudget budget = holder.budget();
        switch (column) {
            case "models" -> statement.setString(index, JsonColumns.write(holder.models()));
            case "max_budget" -> Columns.money(statement, index, budget.maxBudget());
            case "budget_duration" -> Columns.text(statement, index, budget.budgetDuration());
            case "budget_reset_at" -> Columns.time(statement, index, budget.budgetResetAt());
            case "spend" -> statement.setBigDecimal(index, budget.spend());
            case "rpm_limit" -> Columns.bigint(statement, index, holder.limits().rpmLimit());
            case "tpm_limit" -> Columns.bigint(statement, index, holder.limits().tpmLimit());
            case "metadata" -> statement.setString(index, JsonColumns.write(holder.metadata()));
            case "created_at" -> Columns.time(statement, index, holder.createdAt());
            default -> bindOwn(statement, index, column, holder);
        }
    }

    /** Reads the budget columns every holder has, and its metadata, onto {@code holder}. */
    static void readBudget(ResultSet row, BudgetHolder.Builder<?> holder) throws SQLException {
        holder.models(JsonColumns.strings("models", row.getString("models")))
                .maxBudget(Columns.money(row, "max_budget").orElse(null))
                .budgetDuration(Columns.text(row, "budget_duration").orElse(null))
                .budgetResetAt(Columns.time(row, "budget_reset_at").orElse(null))
                .spend(Money.of(row.getBigDecimal("spend")))
                .rpmLimit(AccountLimits.boxed(Columns.bigint(row, "rpm_limit")))
                .tpmLimit(AccountLimits.boxed(Columns.bigint(row, "tpm_limit")))
                .metadata(JsonColumns.object("metadata", row.getString("metadata")));
    }

    private List<T> all(PreparedStatement statement) throws SQLException {
        List<T> found = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                found.add(read(rows));
            }
        }
        return found;
    }
}
