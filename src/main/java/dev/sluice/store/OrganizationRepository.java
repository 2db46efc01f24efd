package dev.sluice.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Organizations in {@code sluice_organizations}, by organization id: the statements of
 * {@link BudgetHolderRepository} over that table's columns.
 *
 * <p>Every method blocks on the database. Failures are {@link StoreException}s.
 */
public final class OrganizationRepository extends BudgetHolderRepository<Organization> {
    private static final Table TABLE = new Table("sluice_organizations", "organization_id", "organization_id, "
            + "organization_alias, models, max_budget, budget_duration, budget_reset_at, spend, rpm_limit, tpm_limit, "
            + "metadata, created_at", "organization");

    public OrganizationRepository(Database database) {
        super(database, TABLE);
    }

    public Optional<Organization> findById(String organizationId) {
        return findBy("organization_id", organizationId);
    }

    @Override
    void bindInsert(PreparedStatement statement, Organization organization) throws SQLException {
        statement.setString(1, organization.organizationId());
        Columns.text(statement, 2, organization.organizationAlias());
        int next = bindBudget(statement, 3, organization, true);
        statement.setString(next, JsonColumns.write(organization.metadata()));
        Columns.time(statement, next + 1, organization.createdAt());
    }

    @Override
    void bindUpdate(PreparedStatement statement, Organization organization) throws SQLException {
        Columns.text(statement, 1, organization.organizationAlias());
        int next = bindBudget(statement, 2, organization, false);
        statement.setString(next, JsonColumns.write(organization.metadata()));
        statement.setString(next + 1, organization.organizationId());
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
