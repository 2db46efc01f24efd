package dev.sluice.accounts;

import dev.sluice.store.Customer;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.Organization;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.StoreException;
import dev.sluice.store.User;
import dev.sluice.store.UserRepository;
import dev.sluice.time.Scheduler;
import dev.sluice.time.SupervisedLoop;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets the stored spend of users, organizations and customers back to zero when their
 * {@code budget_duration} comes round, as {@link BudgetResets} does for keys and teams and
 * with the same rules: a reset another replica made is not made twice.
 */
public record OwnerBudgetResets(UserRepository users, OrganizationRepository organizations, CustomerRepository customers,
        Clock clock, ZoneId zone) {
    private static final Logger log = LoggerFactory.getLogger(OwnerBudgetResets.class);

    /** Resets every user, organization and customer whose period has ended; returns how many. Blocks on the store. */
    public int runOnce() {
        Instant now = clock.instant();
        return BudgetResets.resetDue(limit -> users.dueForReset(now, limit), user -> user.budget().budgetDuration(),
                user -> user.budget().budgetResetAt(), (User user, Instant next) -> users.resetSpend(user.userId(), next),
                now, zone)
                + BudgetResets.resetDue(limit -> organizations.dueForReset(now, limit), org -> org.budget().budgetDuration(),
                        org -> org.budget().budgetResetAt(), (Organization organization, Instant next) ->
                                organizations.resetSpend(organization.organizationId(), next), now, zone)
                + BudgetResets.resetDue(limit -> customers.dueForReset(now, limit), customer -> customer.budget().budgetDuration(),
                        customer -> customer.budget().budgetResetAt(), (Customer customer, Instant next) ->
                                customers.resetSpend(customer.userId(), next), now, zone);
    }

    /**
     * Runs {@link #runOnce} every {@link BudgetResets#EVERY} as the job {@code owner-budget-resets}
     * until it is stopped; a run that throws anything but a {@link StoreException} is restarted.
     */
    public SupervisedLoop start(Scheduler scheduler) {
        return scheduler.every("owner-budget-resets", BudgetResets.EVERY, () -> {
            try {
                int reset = runOnce();
                if (reset > 0) {
                    log.info("budgets.reset owners={}", reset);
                }
            } catch (StoreException e) {
                log.debug("budgets.reset_postponed reason={}", e.getMessage());
            }
        });
    }
}
