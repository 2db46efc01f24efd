package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What a {@link VirtualKey}, a {@link Team}, a {@link User}, an {@link Organization} and a
 * {@link Customer} all hold, in the same columns of their
 * tables: the model groups they may call, a budget with its period and the spend so far
 * ({@link AccountBudget}), rate limits ({@link AccountLimits}), the owner's metadata and when
 * they were made.
 */
public sealed interface BudgetHolder permits Team, VirtualKey, User, Organization, Customer {
    /** Model groups the holder may call; empty allows every group. */
    List<String> models();

    /** The budget the holder sets and its spend so far. */
    AccountBudget budget();

    /** The rate limits the holder sets. */
    AccountLimits limits();

    /** The owner's JSON object, kept as given. */
    ObjectNode metadata();

    Instant createdAt();

    /**
     * The setters a key's and a team's builders share. A setter given {@code null} clears the
     * value; values are checked when the holder is built.
     *
     * @param <B> the builder itself, so that setters chain
     */
    abstract sealed class Builder<B extends Builder<B>> permits Team.Builder, VirtualKey.Builder, User.Builder,
            Organization.Builder, Customer.Builder {
        List<String> models = List.of();
        BigDecimal maxBudget;
        String budgetDuration;
        Instant budgetResetAt;
        BigDecimal spend = Money.ZERO;
        Long rpmLimit;
        Long tpmLimit;
        ObjectNode metadata;
        Instant createdAt;

        /** No limits, no budget and no spend. */
        Builder(Instant createdAt) {
            this.createdAt = createdAt;
        }

        /** Every shared value of {@code holder}. */
        Builder(BudgetHolder holder) {
            models = holder.models();
            AccountBudget budget = holder.budget();
            maxBudget = budget.maxBudget().orElse(null);
            budgetDuration = budget.budgetDuration().orElse(null);
            budgetResetAt = budget.budgetResetAt().orElse(null);
            spend = budget.spend();
            rpmLimit = AccountLimits.boxed(holder.limits().rpmLimit());
            tpmLimit = AccountLimits.boxed(holder.limits().tpmLimit());
            metadata = holder.metadata();
            createdAt = holder.createdAt();
        }

        public B models(List<String> models) {
            this.models = models == null ? List.of() : models;
            return self();
        }

        public B maxBudget(BigDecimal maxBudget) {
            this.maxBudget = maxBudget;
            return self();
        }

        public B budgetDuration(String budgetDuration) {
            this.budgetDuration = budgetDuration;
            return self();
        }

        public B budgetResetAt(Instant budgetResetAt) {
            this.budgetResetAt = budgetResetAt;
            return self();
        }

        public B spend(BigDecimal spend) {
            this.spend = spend == null ? Money.ZERO : spend;
            return self();
        }

        public B rpmLimit(Long rpmLimit) {
            this.rpmLimit = rpmLimit;
            return self();
        }

        public B tpmLimit(Long tpmLimit) {
            this.tpmLimit = tpmLimit;
            return self();
        }

        public B metadata(ObjectNode metadata) {
            this.metadata = metadata;
            return self();
        }

        public B createdAt(Instant createdAt) {
            this.createdAt = createdAt;
            return self();
        }

        /** The budget set so far, checked. */
        AccountBudget budget() {
            return AccountBudget.of(maxBudget, budgetDuration, budgetResetAt, spend);
        }

        /** The rate limits set so far with {@code maxParallelRequests}, checked. */
        AccountLimits limits(Integer maxParallelRequests) {
            return AccountLimits.of(rpmLimit, tpmLimit, maxParallelRequests);
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
