package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An organization as stored: the model list that bounds its teams, and the budget and limits
 * all its teams' calls share, with their spend so far. Field names follow LiteLLM's
 * {@code LiteLLM_OrganizationTable}, with the budget inline rather than in a budget table.
 */
public record Organization(
        String organizationId,
        Optional<String> organizationAlias,
        List<String> models,
        AccountBudget budget,
        AccountLimits limits,
        ObjectNode metadata,
        Instant createdAt) implements BudgetHolder {

    public Organization {
        Objects.requireNonNull(organizationId, "organizationId");
        if (organizationId.isBlank()) {
            throw new IllegalArgumentException("organization_id: \"" + organizationId + "\" (expected: a non-blank id)");
        }
        Objects.requireNonNull(organizationAlias, "organizationAlias");
        models = Frozen.list("models", models);
        Objects.requireNonNull(budget, "budget");
        limits = Objects.requireNonNull(limits, "limits").withoutParallelLimit("organizations");
        metadata = Frozen.object(metadata);
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode metadata() {
        return metadata.deepCopy();
    }

    public static Builder builder(String organizationId, Instant createdAt) {
        return new Builder(organizationId, createdAt);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds an {@link Organization}; values are checked by {@link #build()}. */
    public static final class Builder extends BudgetHolder.Builder<Builder> {
        private final String organizationId;
        private String organizationAlias;

        private Builder(String organizationId, Instant createdAt) {
            super(createdAt);
            this.organizationId = organizationId;
        }

        private Builder(Organization organization) {
            super(organization);
            organizationId = organization.organizationId;
            organizationAlias = organization.organizationAlias.orElse(null);
        }

        public Builder organizationAlias(String organizationAlias) {
            this.organizationAlias = organizationAlias;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public Organization build() {
            return new Organization(organizationId, Optional.ofNullable(organizationAlias), models, budget(), limits(null),
                    metadata, createdAt);
        }
    }
}
