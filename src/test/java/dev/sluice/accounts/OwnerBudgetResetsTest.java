package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Customer;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.Database;
import dev.sluice.store.Organization;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.User;
import dev.sluice.store.UserRepository;
import dev.sluice.testing.Eventually;
import dev.sluice.testing.FailingOnceClock;
import dev.sluice.testing.FakeClock;
import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestSupervision;
import dev.sluice.time.SupervisedLoop;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/** The stored spend of users, organizations and customers goes back to zero when their period ends, once. */
class OwnerBudgetResetsTest {
    private static final Instant T0 = Instant.parse("2025-03-01T00:00:00Z");

    @StoreTest
    void usersOrganizationsAndCustomersAreResetWhenTheirPeriodEndsAndNotBefore(Database database) {
        UserRepository users = new UserRepository(database);
        OrganizationRepository organizations = new OrganizationRepository(database);
        CustomerRepository customers = new CustomerRepository(database);
        users.insert(User.builder("ada", T0).budgetDuration("30s").budgetResetAt(T0.plusSeconds(30))
                .spend(new BigDecimal("2.5")).build());
        organizations.insert(Organization.builder("acme", T0).budgetDuration("30s").budgetResetAt(T0.plusSeconds(30))
                .spend(new BigDecimal("4")).build());
        customers.insert(Customer.builder("buyer", T0).budgetDuration("1m").budgetResetAt(T0.plusSeconds(60))
                .spend(new BigDecimal("1")).build());
        customers.insert(Customer.builder("lifetime", T0).spend(new BigDecimal("9")).build());
        FakeClock clock = new FakeClock(T0);
        OwnerBudgetResets resets = new OwnerBudgetResets(users, organizations, customers, clock, ZoneOffset.UTC);

        clock.set(T0.plusSeconds(29).plusMillis(999));
        assertThat(resets.runOnce()).isZero();
        assertThat(users.findById("ada").orElseThrow().budget().spend()).isEqualByComparingTo("2.5");

        clock.set(T0.plusSeconds(30));
        assertThat(resets.runOnce()).isEqualTo(2);
        User user = users.findById("ada").orElseThrow();
        assertThat(user.budget().spend()).isEqualByComparingTo("0");
        assertThat(user.budget().budgetResetAt()).hasValue(T0.plusSeconds(60));
        assertThat(organizations.findById("acme").orElseThrow().budget().spend()).isEqualByComparingTo("0");
        assertThat(customers.findById("buyer").orElseThrow().budget().spend()).isEqualByComparingTo("1");
        assertThat(resets.runOnce()).as("the same period is not reset twice").isZero();

        clock.set(T0.plusSeconds(60));
        assertThat(resets.runOnce()).isEqualTo(3);
        assertThat(customers.findById("buyer").orElseThrow().budget().spend()).isEqualByComparingTo("0");
        assertThat(customers.findById("lifetime").orElseThrow().budget().spend()).isEqualByComparingTo("9");
    }

    @StoreTest
    void theResetsOutliveARunThatRanOutOfMemoryAndTheNextRunResets(Database database) throws InterruptedException {
        UserRepository users = new UserRepository(database);
        users.insert(User.builder("grace", T0).budgetDuration("30s").budgetResetAt(T0.plusSeconds(30))
                .spend(new BigDecimal("2.5")).build());
        FailingOnceClock clock = new FailingOnceClock(new FakeClock(T0.plusSeconds(30)));
        TestSupervision time = new TestSupervision();

        SupervisedLoop resets = new OwnerBudgetResets(users, new OrganizationRepository(database), new CustomerRepository(database),
                clock, ZoneOffset.UTC).start(time.scheduler());
        try {
            Eventually.until("the user's spend reset", Duration.ofSeconds(10),
                    () -> users.findById("grace").orElseThrow().budget().spend().signum() == 0);
            assertThat(clock.failed()).isTrue();
            assertThat(time.restarts().of("owner-budget-resets")).isEqualTo(1);
        } finally {
            resets.interrupt();
            resets.thread().join();
        }
    }
}
