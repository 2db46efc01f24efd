package dev.sluice.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An internal user as stored: the budget, model list and limits every key made with its
 * {@code user_id} shares, and the spend of all those keys together. Field names follow
 * LiteLLM's {@code LiteLLM_UserTable}. Immutable; {@link #toBuilder()} makes a changed copy.
 *
 * @param userRole one of {@link #ROLES}, as LiteLLM spells them
 */
public record User(
        String userId,
        Optional<String> userEmail,
        String userRole,
        List<String> models,
        AccountBudget budget,
        AccountLimits limits,
        ObjectNode metadata,
        Instant createdAt) implements BudgetHolder {

    /** LiteLLM's internal user roles. */
    public static final Set<String> ROLES = Set.of("proxy_admin", "proxy_admin_viewer", "internal_user", "internal_user_viewer");
    /** The role of a user made without one, as in LiteLLM. */
    public static final String DEFAULT_ROLE = "internal_user";

    public User {
        Objects.requireNonNull(userId, "userId");
        if (userId.isBlank()) {
            throw new IllegalArgumentException("user_id: \"" + userId + "\" (expected: a non-blank id)");
        }
        Objects.requireNonNull(userEmail, "userEmail");
        if (!ROLES.contains(userRole)) {
            throw new IllegalArgumentException("user_role: \"" + userRole + "\" (expected: one of " + String.join(", ",
                    ROLES.stream().sorted().toList()) + ")");
        }
        models = Frozen.list("models", models);
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(limits, "limits");
        metadata = Frozen.object(metadata);
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
    }

    /** A copy: the record stays unchanged whatever the caller does with it. */
    @Override
    public ObjectNode metadata() {
        return metadata.deepCopy();
    }

    /** A user of the default role with no limits, no budget and no spend. */
    public static Builder builder(String userId, Instant createdAt) {
        return new Builder(userId, createdAt);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds a {@link User}; values are checked by {@link #build()}. A setter given {@code null} clears the value. */
    public static final class Builder extends BudgetHolder.Builder<Builder> {
        private final String userId;
        private String userEmail;
        private String userRole = DEFAULT_ROLE;
        private Integer maxParallelRequests;

        private Builder(String userId, Instant createdAt) {
            super(createdAt);
            this.userId = userId;
        }

        private Builder(User user) {
            super(user);
            userId = user.userId;
            userEmail = user.userEmail.orElse(null);
            userRole = user.userRole;
            maxParallelRequests = AccountLimits.boxed(user.limits.maxParallelRequests());
        }

        public Builder userEmail(String userEmail) {
            this.userEmail = userEmail;
            return this;
        }

        /** {@code null} gives the default role. */
        public Builder userRole(String userRole) {
            this.userRole = userRole == null ? DEFAULT_ROLE : userRole;
            return this;
        }

        public Builder maxParallelRequests(Integer maxParallelRequests) {
            this.maxParallelRequests = maxParallelRequests;
            return this;
        }

        /** @throws IllegalArgumentException naming the field, the value and the rule it breaks */
        public User build() {
            return new User(userId, Optional.ofNullable(userEmail), userRole, models, budget(), limits(maxParallelRequests),
                    metadata, createdAt);
        }
    }
}
