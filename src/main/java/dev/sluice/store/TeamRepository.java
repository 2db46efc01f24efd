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
 * Teams in {@code sluice_teams}, by team id.
 *
 * <p>As for keys, spend moves only through {@link #addSpend} and {@link #resetSpend};
 * {@link #update} writes every other field.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class TeamRepository {
    private static final String COLUMNS = "team_id, team_alias, models, max_budget, budget_duration, "
            + "budget_reset_at, spend, rpm_limit, tpm_limit, router_settings, metadata, created_at";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM sluice_teams";
    private static final String INSERT = "INSERT INTO sluice_teams (" + COLUMNS + ") "
            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE = "UPDATE sluice_teams SET team_alias = ?, models = ?, max_budget = ?, "
            + "budget_duration = ?, budget_reset_at = ?, rpm_limit = ?, tpm_limit = ?, router_settings = ?, "
            + "metadata = ? WHERE team_id = ?";
    private static final String ADD_SPEND = "UPDATE sluice_teams SET spend = spend + ? WHERE team_id = ?";
    private static final String RESET_SPEND = "UPDATE sluice_teams SET spend = 0, budget_reset_at = ? "
            + "WHERE team_id = ? AND (budget_reset_at IS NULL OR budget_reset_at < ?)";

    private final Database database;

    public TeamRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Stores a new team with the spend it holds (zero, for a new team).
     *
     * @throws StoreException of reason {@link StoreException.Reason#CONFLICT CONFLICT} when
     *                        the id is already taken
     */
    public void insert(Team team) {
        database.withConnection("insert team", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
                statement.setString(1, team.teamId());
                Columns.text(statement, 2, team.teamAlias());
                statement.setString(3, JsonColumns.write(team.models()));
                Columns.money(statement, 4, team.maxBudget());
                Columns.text(statement, 5, team.budgetDuration());
                Columns.time(statement, 6, team.budgetResetAt());
                statement.setBigDecimal(7, team.spend());
                Columns.bigint(statement, 8, team.rpmLimit());
                Columns.bigint(statement, 9, team.tpmLimit());
                statement.setString(10, JsonColumns.write(team.routerSettings()));
                statement.setString(11, JsonColumns.write(team.metadata()));
                Columns.time(statement, 12, team.createdAt());
                return statement.executeUpdate();
            }
        });
    }

    public Optional<Team> findById(String teamId) {
        return database.withConnection("find team", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(SELECT + " WHERE team_id = ?")) {
                statement.setString(1, teamId);
                List<Team> teams = all(statement);
                return teams.isEmpty() ? Optional.empty() : Optional.of(teams.getFirst());
            }
        });
    }

    /**
     * Writes every field of the stored team with the same id but its spend and creation time.
     *
     * @return false when no team has that id
     */
    public boolean update(Team team) {
        return database.withConnection("update team", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(UPDATE)) {
                Columns.text(statement, 1, team.teamAlias());
                statement.setString(2, JsonColumns.write(team.models()));
                Columns.money(statement, 3, team.maxBudget());
                Columns.text(statement, 4, team.budgetDuration());
                Columns.time(statement, 5, team.budgetResetAt());
                Columns.bigint(statement, 6, team.rpmLimit());
                Columns.bigint(statement, 7, team.tpmLimit());
                statement.setString(8, JsonColumns.write(team.routerSettings()));
                statement.setString(9, JsonColumns.write(team.metadata()));
                statement.setString(10, team.teamId());
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Deletes the team, not its keys: they keep its id until they are changed or deleted. */
    public boolean delete(String teamId) {
        return database.withConnection("delete team", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("DELETE FROM sluice_teams WHERE team_id = ?")) {
                statement.setString(1, teamId);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** One page of the teams, oldest first (ties by id). */
    public List<Team> list(Page page) {
        return database.withConnection("list teams", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    SELECT + " ORDER BY created_at, team_id LIMIT ? OFFSET ?")) {
                statement.setInt(1, page.size());
                statement.setLong(2, page.offset());
                return all(statement);
            }
        });
    }

    public long count() {
        return database.withConnection("count teams", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT COUNT(*) FROM sluice_teams");
                    ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        });
    }

    /**
     * Adds {@code amount} dollars to the team's spend in one atomic statement, so concurrent
     * additions all count.
     *
     * @return false when no team has that id
     */
    public boolean addSpend(String teamId, BigDecimal amount) {
        BigDecimal dollars = Money.nonNegative("amount", amount);
        return database.withConnection("add team spend", connection -> addSpend(connection, teamId, dollars));
    }

    static boolean addSpend(Connection connection, String teamId, BigDecimal amount) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(ADD_SPEND)) {
            statement.setBigDecimal(1, amount);
            statement.setString(2, teamId);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Sets the team's spend to zero and its next reset to {@code nextResetAt}, unless its
     * recorded next reset is already at or after {@code nextResetAt}: the same reset run
     * twice resets once.
     *
     * @return true when the spend was reset
     */
    public boolean resetSpend(String teamId, Instant nextResetAt) {
        Instant next = Columns.micros(nextResetAt);
        return database.withConnection("reset team spend", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(RESET_SPEND)) {
                Columns.time(statement, 1, next);
                statement.setString(2, teamId);
                Columns.time(statement, 3, next);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Teams whose budget reset is due at {@code now}, soonest first, at most {@code limit}. */
    public List<Team> dueForReset(Instant now, int limit) {
        Page.checkLimit(limit);
        return database.withConnection("list teams due for reset", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    SELECT + " WHERE budget_reset_at <= ? ORDER BY budget_reset_at, team_id LIMIT ?")) {
                Columns.time(statement, 1, now);
                statement.setInt(2, limit);
                return all(statement);
            }
        });
    }

    private static List<Team> all(PreparedStatement statement) throws SQLException {
        List<Team> teams = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                teams.add(read(rows));
            }
        }
        return teams;
    }

    private static Team read(ResultSet row) throws SQLException {
        return new Team(
                row.getString("team_id"),
                Columns.text(row, "team_alias"),
                JsonColumns.strings("models", row.getString("models")),
                Columns.money(row, "max_budget"),
                Columns.text(row, "budget_duration"),
                Columns.time(row, "budget_reset_at"),
                Money.of(row.getBigDecimal("spend")),
                Columns.bigint(row, "rpm_limit"),
                Columns.bigint(row, "tpm_limit"),
                JsonColumns.object("router_settings", row.getString("router_settings")),
                JsonColumns.object("metadata", row.getString("metadata")),
                Columns.requiredTime(row, "created_at"));
    }
}
