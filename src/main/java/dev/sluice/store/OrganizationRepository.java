package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Organizations in {@code sluice_organizations}, by organization id: the statements of
 * {@link BudgetHolderRepository} over that table's columns.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class OrganizationRepository extends BudgetHolderRepository<Organization> {
    private static final Table TABLE = Table.of("sluice_organizations", "organization_id",
            "organization_id, organization_alias", "organization");

    public OrganizationRepository(Database database) {
        super(database, TABLE);
    }

    @Override
    void bindOwn(PreparedStatement statement, int index, String column, Organization organization) throws SQLException {
        switch (column) {
            case "organization_id" -> statement.setString(index, organization.organizationId());
            case "organization_alias" -> Columns.text(statement, index, organization.organizationAlias());
            default -> throw new IllegalArgumentException("column: " + column + " (expected: one of the table's)");
        }
    }

    @Override
    Organization read(ResultSet row) throws SQLException {
        Organization.Builder organization = Organization.builder(row.getString("organization_id"),
                        Columns.requiredTime(row, "created_at"))
                .organizationAlias(Columns.text(row, "organization_alias").orElse(null));
        readBudget(row, organization);
        return organization.build();
    }
}
