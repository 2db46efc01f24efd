package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Teams in {@code sluice_teams}, by team id. Every statement but the columns' own binding and
 * reading is the same as for keys: {@link BudgetHolderRepository}.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class TeamRepository extends BudgetHolderRepository<Team> {
    private static final Table TABLE = new Table("sluice_teams", "team_id", "team_id, team_alias, models, max_budget, "
            + "budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, router_settings, metadata, created_at, organization_id, "
            + "model_aliases",
            "team");

    public TeamRepository(Database database) {
        super(database, TABLE);
    }

    public Optional<Team> findById(String teamId) {
        return findBy("team_id", teamId);
    }

    /** One page of an organization's teams, oldest first. */
    public java.util.List<Team> ofOrganization(String organizationId, Page page) {
        return list(new Where(" WHERE organization_id = ?", java.util.List.of(organizationId)), page);
    }

    public long count() {
        return count(Where.NONE);
    }

    @Override
    void bindInsert(PreparedStatement statement, Team team) throws SQLException {
        statement.setString(1, team.teamId());
        Columns.text(statement, 2, team.teamAlias());
        int next = bindBudget(statement, 3, team, true);
        next = bindSettings(statement, next, team);
        Columns.time(statement, next, team.createdAt());
        Columns.text(statement, next + 1, team.organizationId());
        statement.setString(next + 2, JsonColumns.write(team.modelAliases()));
    }

    @Override
    void bindUpdate(PreparedStatement statement, Team team) throws SQLException {
        Columns.text(statement, 1, team.teamAlias());
        int next = bindBudget(statement, 2, team, false);
        next = bindSettings(statement, next, team);
        Columns.text(statement, next, team.organizationId());
        statement.setString(next + 1, JsonColumns.write(team.modelAliases()));
        statement.setString(next + 2, team.teamId());
    }

    /** {@code router_settings, metadata} from parameter {@code from}; returns the next index. */
    private static int bindSettings(PreparedStatement statement, int from, Team team) throws SQLException {
        statement.setString(from, JsonColumns.write(team.routerSettings()));
        statement.setString(from + 1, JsonColumns.write(team.metadata()));
        return from + 2;
    }

    @Override
    Team read(ResultSet row) throws SQLException {
        Team.Builder team = Team.builder(row.getString("team_id"), Columns.requiredTime(row, "created_at"))
                .teamAlias(Columns.text(row, "team_alias").orElse(null))
                .routerSettings(JsonColumns.object("router_settings", row.getString("router_settings")))
                .organizationId(Columns.text(row, "organization_id").orElse(null))
                .modelAliases(JsonColumns.names("model_aliases", row.getString("model_aliases")));
        readBudget(row, team);
        return team.build();
    }
}
