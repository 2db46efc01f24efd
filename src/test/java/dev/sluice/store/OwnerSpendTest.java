package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.row;
import static dev.sluice.store.StoreFixtures.team;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import java.time.Clock;
import java.util.List;

/**
 * Posting calls moves the spend of their users, their teams' organizations and their
 * customers with their keys', once per call however often a batch is posted, with a journal
 * mark (the embedded store's blocks) or without (one row per call).
 */
class OwnerSpendTest {

    @StoreTest
    void aBatchPostedTwiceCountsForUsersOrganizationsAndCustomersOnce(Database database) {
        UserRepository users = new UserRepository(database);
        OrganizationRepository organizations = new OrganizationRepository(database);
        CustomerRepository customers = new CustomerRepository(database);
        users.insert(User.builder("ada", T0).build());
        organizations.insert(Organization.builder("acme", T0).build());
        customers.insert(Customer.builder("buyer", T0).build());
        new TeamRepository(database).insert(team("red").toBuilder().organizationId("acme").build());
        new TeamRepository(database).insert(team("blue").toBuilder().organizationId("acme").build());
        List<SpendRow> batch = List.of(
                withOwners(row("c1", "sk-a", "red", "gpt-4o", "0.5", T0), "ada", "buyer"),
                withOwners(row("c2", "sk-b", "blue", "gpt-4o", "0.25", T0), "ada", null),
                withOwners(row("c3", "sk-c", null, "gpt-4o", "2", T0), null, "buyer"));
        SpendLedger ledger = new SpendLedger(database, Clock.systemUTC());
        JournalMark mark = new JournalMark("journal-1", 1, 100);

        assertThat(ledger.post(batch, mark)).isEqualTo(3);
        assertThat(ledger.post(batch, mark)).isZero();

        assertThat(users.findById("ada").orElseThrow().budget().spend()).isEqualTo(dollars("0.75"));
        assertThat(organizations.findById("acme").orElseThrow().budget().spend()).isEqualTo(dollars("0.75"));
        assertThat(customers.findById("buyer").orElseThrow().budget().spend()).isEqualTo(dollars("2.5"));
    }

    @org.junit.jupiter.api.Test
    void aRowThroughTheJournalCodecKeepsItsCustomer() {
        SpendRow row = withOwners(row("c1", "sk-a", "red", "gpt-4o", "0.5", T0), "ada", "buyer");
        SpendRowCodec.Encoded encoded = SpendRowCodec.prepare(row);
        java.nio.ByteBuffer body = java.nio.ByteBuffer.allocate(encoded.bodyBytes());
        encoded.writeBody(body, 7);
        body.flip();
        assertThat(body.get(0)).isEqualTo((byte) 4);
        assertThat(SpendRowCodec.decode(body).orElseThrow().row()).isEqualTo(row);
        // A row without a customer is written as before, readable by the previous release.
        SpendRowCodec.Encoded plain = SpendRowCodec.prepare(withOwners(row, "ada", null));
        java.nio.ByteBuffer old = java.nio.ByteBuffer.allocate(plain.bodyBytes());
        plain.writeBody(old, 7);
        assertThat(old.get(0)).isEqualTo((byte) 2);
    }

    private static SpendRow withOwners(SpendRow row, String userId, String endUser) {
        SpendAccounts accounts = new SpendAccounts(row.accounts().keyHash(), row.accounts().teamId(),
                java.util.Optional.ofNullable(userId), java.util.Optional.ofNullable(endUser));
        return new SpendRow(row.callId(), accounts, row.modelGroup(), row.deploymentId(), row.tokens(), row.cost(),
                row.status(), row.durationMs(), row.startedAt(), row.tags(), row.cacheHit(), row.cacheKey());
    }
}
