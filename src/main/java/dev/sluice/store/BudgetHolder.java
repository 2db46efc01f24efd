package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a {@link VirtualKey}, a {@link Team}, a {@link User}, an {@link Organization} and a
 * {@link Customer} all hold, in the same columns of their
 * tables: the model groups they may call, a budget with its period and the spend so far,
 * rate limits, the owner's metadata and when they were made.
 */
public sealed interface BudgetHolder permits Team, VirtualKey, User, Organization, Customer {
    /** Model groups the holder may call; empty allows every group. */
    List<String> models();

    /** Dollars the holder may spend per budget period (ever, without one). */
    Optional<BigDecimal> maxBudget();

    /** The budget period as written: {@code 30s}, {@code 30m}, {@code 30h}, {@code 30d}. */
    Optional<String> budgetDuration();

    /** When spend next goes back to zero. */
    Optional<Instant> budgetResetAt();

    /** Dollars spent in the current period, {@link Money scale 12}. */
    BigDecimal spend();

    OptionalLong rpmLimit();

    OptionalLong tpmLimit();

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
            maxBudget = holder.maxBudget().orElse(null);
            budgetDuration = holder.budgetDuration().orElse(null);
            budgetResetAt = holder.budgetResetAt().orElse(null);
            spend = holder.spend();
            rpmLimit = Limits.boxed(holder.rpmLimit());
            tpmLimit = Limits.boxed(holder.tpmLimit());
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

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
