package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Team members in {@code sluice_team_members}, one row per team and user.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class TeamMemberRepository {
    private static final String COLUMNS = "team_id, user_id, role, max_budget_in_team, created_at";

    private final Database database;

    public TeamMemberRepository(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Adds the member, or changes its role and budget when the user is in the team already.
     *
     * @return true when the user was not a member before
     */
    public boolean put(TeamMember member) {
        return database.withConnection("add team member", connection -> {
            if (change(connection, member)) {
                return false;
            }
            try (PreparedStatement statement = connection.prepareStatement(
                    "INSERT INTO sluice_team_members (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)")) {
                statement.setString(1, member.teamId());
                statement.setString(2, member.userId());
                statement.setString(3, member.role());
                Columns.money(statement, 4, member.maxBudgetInTeam());
                Columns.time(statement, 5, member.createdAt());
                statement.executeUpdate();
                return true;
            }
        });
    }

    private static boolean change(Connection connection, TeamMember member) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("UPDATE sluice_team_members SET role = ?, "
                + "max_budget_in_team = ? WHERE team_id = ? AND user_id = ?")) {
            statement.setString(1, member.role());
            Columns.money(statement, 2, member.maxBudgetInTeam());
            statement.setString(3, member.teamId());
            statement.setString(4, member.userId());
            return statement.executeUpdate() == 1;
        }
    }

    /** @return false when the user was not in the team */
    public boolean delete(String teamId, String userId) {
        return database.withConnection("delete team member", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM sluice_team_members WHERE team_id = ? AND user_id = ?")) {
                statement.setString(1, teamId);
                statement.setString(2, userId);
                return statement.executeUpdate() == 1;
            }
        });
    }

    /** Removes every member of a deleted team, or every membership of a deleted user. */
    public void deleteAll(String column, String id) {
        if (!column.equals("team_id") && !column.equals("user_id")) {
            throw new IllegalArgumentException("column: " + column + " (expected: team_id or user_id)");
        }
        database.withConnection("delete team members", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM sluice_team_members WHERE " + column + " = ?")) {
                statement.setString(1, id);
                return statement.executeUpdate();
            }
        });
    }

    /** A team's members, in the order they joined. */
    public List<TeamMember> ofTeam(String teamId) {
        return select("team_id", teamId);
    }

    /** A user's memberships, in the order it joined its teams. */
    public List<TeamMember> ofUser(String userId) {
        return select("user_id", userId);
    }

    private List<TeamMember> select(String column, String id) {
        return database.withConnection("list team members", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT " + COLUMNS
                    + ", spend FROM sluice_team_members WHERE " + column + " = ? ORDER BY created_at, team_id, user_id")) {
                statement.setString(1, id);
                List<TeamMember> members = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        members.add(new TeamMember(rows.getString("team_id"), rows.getString("user_id"),
                                rows.getString("role"), Columns.money(rows, "max_budget_in_team"),
                                Columns.requiredTime(rows, "created_at"), rows.getBigDecimal("spend")));
                    }
                }
                return members;
            }
        });
    }

    /** The member's budget in the team, when the user is a member with a {@code max_budget_in_team}. */
    public Optional<MemberBudget> budget(String teamId, String userId) {
        return database.withConnection("read team member budget", connection -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT max_budget_in_team, spend "
                    + "FROM sluice_team_members WHERE team_id = ? AND user_id = ? AND max_budget_in_team IS NOT NULL")) {
                statement.setString(1, teamId);
                statement.setString(2, userId);
                try (ResultSet rows = statement.executeQuery()) {
                    return rows.next()
                            ? Optional.of(new MemberBudget(teamId, userId, rows.getBigDecimal(1), rows.getBigDecimal(2)))
                            : Optional.<MemberBudget>empty();
                }
            }
        });
    }

    /** Adds to the member's spend in the team, on a connection the caller holds, in its transaction; no member, no change. */
    static void addSpend(Connection connection, String teamId, String userId, BigDecimal amount) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE sluice_team_members SET spend = spend + ? WHERE team_id = ? AND user_id = ?")) {
            statement.setBigDecimal(1, amount);
            statement.setString(2, teamId);
            statement.setString(3, userId);
            statement.executeUpdate();
        }
    }
}
