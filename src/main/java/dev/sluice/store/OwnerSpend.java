package dev.sluice.store;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The part of a {@link SpendLedger} post that adds the new rows' cost to the users, the
 * team members (a user's calls with its keys of a team), the organizations and the customers
 * they belong to, in the post's transaction: a row counted
 * for its key is counted for them too, and a row already counted for none. A row's
 * organization is its team's at the time of the post. Each table is updated in id order,
 * as keys and teams are, so two posts take their row locks in the same order.
 */
final class OwnerSpend {
    /** Members by team, then user: the order of the table's key, in which their row locks are taken. */
    private static final Comparator<List<String>> MEMBER_ORDER = Comparator.comparing((List<String> m) -> m.get(0))
            .thenComparing(m -> m.get(1));

    private final UserRepository users;
    private final OrganizationRepository organizations;
    private final CustomerRepository customers;

    OwnerSpend(Database database) {
        this.users = new UserRepository(database);
        this.organizations = new OrganizationRepository(database);
        this.customers = new CustomerRepository(database);
    }

    /** Adds what {@code fresh} cost; {@code byTeam} is the same rows' cost per team. */
    void add(Connection connection, List<SpendRow> fresh, Map<String, BigDecimal> byTeam) throws SQLException {
        Map<String, BigDecimal> byUser = new TreeMap<>();
        Map<String, BigDecimal> byCustomer = new TreeMap<>();
        Map<List<String>, BigDecimal> byMember = new TreeMap<>(MEMBER_ORDER);
        for (SpendRow row : fresh) {
            row.accounts().userId().ifPresent(user -> byUser.merge(user, row.cost(), BigDecimal::add));
            SpendAccounts accounts = row.accounts();
            accounts.teamId().ifPresent(team -> accounts.userId().ifPresent(user -> byMember.merge(List.of(team, user), row.cost(),
                    BigDecimal::add)));
            row.accounts().endUser().ifPresent(customer -> byCustomer.merge(customer, row.cost(), BigDecimal::add));
        }
        for (Map.Entry<String, BigDecimal> user : byUser.entrySet()) {
            users.addSpend(connection, user.getKey(), user.getValue());
        }
        for (Map.Entry<List<String>, BigDecimal> member : byMember.entrySet()) {
            TeamMemberRepository.addSpend(connection, member.getKey().get(0), member.getKey().get(1), member.getValue());
        }
        Map<String, BigDecimal> byOrganization = new TreeMap<>();
        for (Map.Entry<String, BigDecimal> team : byTeam.entrySet()) {
            String organization = organizationOf(connection, team.getKey());
            if (organization != null) {
                byOrganization.merge(organization, team.getValue(), BigDecimal::add);
            }
        }
        for (Map.Entry<String, BigDecimal> organization : byOrganization.entrySet()) {
            organizations.addSpend(connection, organization.getKey(), organization.getValue());
        }
        for (Map.Entry<String, BigDecimal> customer : byCustomer.entrySet()) {
            customers.addSpend(connection, customer.getKey(), customer.getValue());
        }
    }

    private static String organizationOf(Connection connection, String teamId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT organization_id FROM sluice_teams WHERE team_id = ?")) {
            statement.setString(1, teamId);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }
}
