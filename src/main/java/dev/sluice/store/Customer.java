package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A customer as stored: the end user a call names in its body's {@code user}, with a budget
 * and limits across every key that calls for it, and whether it is blocked. Field names
 * follow LiteLLM's {@code LiteLLM_EndUserTable}, with the budget inline. A customer has no
 * model list: {@link #models()} is always empty.
 */
public record Customer(
        String userId,
        Optional<String> alias,
        boolean blocked,
        AccountBudget budget,
        AccountLimits limits,
        ObjectNode metadata,
        Instant createdAt) implements BudgetHolder {

    public Customer {
        Objects.requireNonNull(userId, "userId");
        if (userId.isBlank()) {
            throw new IllegalArgumentException("user_id: \"" + userId + "\" (expected: a non-blank id)");
        }
        Objects.requireNonNull(alias, "alias");
        Objects.requireNonNull(budget, "budget");
        limits = Objects.requireNonNull(limits, "limits").withoutParallelLimit("customers");
        metadata = Frozen.object(metadata);
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
    }

    @Override
    public List<String> models() {
        return List.of();
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode metadata() {
        return metadata.deepCopy();
    }

    public static Builder builder(String userId, Instant createdAt) {
        return new Builder(userId, createdAt);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds a {@link Customer}; values are checked by {@link #build()}. */
    public static final class Builder extends BudgetHolder.Builder<Builder> {
        private final String userId;
        private String alias;
        private boolean blocked;

        private Builder(String userId, Instant createdAt) {
            super(createdAt);
            this.userId = userId;
        }

        private Builder(Customer customer) {
            super(customer);
            userId = customer.userId;
            alias = customer.alias.orElse(null);
            blocked = customer.blocked;
        }

        public Builder alias(String alias) {
            this.alias = alias;
            return this;
        }

        public Builder blocked(boolean blocked) {
            this.blocked = blocked;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public Customer build() {
            return new Customer(userId, Optional.ofNullable(alias), blocked, budget(), limits(null), metadata, createdAt);
        }
    }
}
