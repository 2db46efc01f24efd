package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Teams in {@code sluice_teams}, by team id. Every statement but the columns' own binding and
 * reading is the same as for keys: {@link BudgetHolderRepository}.
 *
 * <p>Every method blocks on the database: call it from a virtual thread or a worker, never
 * from an event loop. Failures are {@link StoreException}s.
 */
public final class TeamRepository extends BudgetHolderRepository<Team> {
    private static final Table TABLE = Table.of("sluice_teams", "team_id",
            "team_id, team_alias, router_settings, organization_id, model_aliases", "team");

    public TeamRepository(Database database) {
        super(database, TABLE);
    }

    /** One page of an organization's teams, oldest first. */
    public java.util.List<Team> ofOrganization(String organizationId, Page page) {
        return list(new Where(" WHERE organization_id = ?", java.util.List.of(organizationId)), page);
    }

    @Override
    void bindOwn(PreparedStatement statement, int index, String column, Team team) throws SQLException {
        switch (column) {
            case "team_id" -> statement.setString(index, team.teamId());
            case "team_alias" -> Columns.text(statement, index, team.teamAlias());
            case "router_settings" -> statement.setString(index, JsonColumns.write(team.routerSettings()));
            case "organization_id" -> Columns.text(statement, index, team.organizationId());
            case "model_aliases" -> statement.setString(index, JsonColumns.write(team.modelAliases()));
            default -> throw new IllegalArgumentException("column: " + column + " (expected: one of the table's)");
        }
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
