package dev.sluice.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.AccountBudget;
import dev.sluice.store.AccountLimits;

/**
 * The budget and limit fields every account view shows, written once so that a key, a team, a
 * user, an organization and a customer show them alike: the LiteLLM names, dollars as
 * {@link Dollars#shown}, an unset value as {@code null}. Each method writes a run of fields
 * in the order the views list them.
 */
final class AccountFields {
    private AccountFields() {}

    /** {@code spend}, then {@code max_budget}. */
    static void spendAndMax(ObjectNode view, AccountBudget budget) {
        view.put("spend", Dollars.shown(budget.spend()));
        maxBudget(view, budget);
    }

    static void maxBudget(ObjectNode view, AccountBudget budget) {
        view.put("max_budget", budget.maxBudget().map(Dollars::shown).orElse(null));
    }

    /** {@code budget_duration}, then {@code budget_reset_at}. */
    static void period(ObjectNode view, AccountBudget budget) {
        view.put("budget_duration", budget.budgetDuration().orElse(null));
        view.put("budget_reset_at", KeyView.time(budget.budgetResetAt()));
    }

    /** {@code tpm_limit}, then {@code rpm_limit}. */
    static void rateLimits(ObjectNode view, AccountLimits limits) {
        if (limits.tpmLimit().isPresent()) {
            view.put("tpm_limit", limits.tpmLimit().getAsLong());
        } else {
            view.putNull("tpm_limit");
        }
        if (limits.rpmLimit().isPresent()) {
            view.put("rpm_limit", limits.rpmLimit().getAsLong());
        } else {
            view.putNull("rpm_limit");
        }
    }

    static void maxParallelRequests(ObjectNode view, AccountLimits limits) {
        if (limits.maxParallelRequests().isPresent()) {
            view.put("max_parallel_requests", limits.maxParallelRequests().getAsInt());
        } else {
            view.putNull("max_parallel_requests");
        }
    }
}
