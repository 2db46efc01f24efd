package dev.sluice.store;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A user's place in a team: its role there and the budget it has within the team, LiteLLM's
 * {@code members_with_roles} entry and {@code LiteLLM_TeamMembership} row in one.
 *
 * @param role  {@code admin} or {@code user}
 * @param spend what the user's keys of the team have spent since it joined, {@link Money scale 12};
 *              only the spend ledger adds to it, so writing a member leaves it as stored
 */
public record TeamMember(String teamId, String userId, String role, Optional<BigDecimal> maxBudgetInTeam, Instant createdAt,
        BigDecimal spend) {
    public static final Set<String> ROLES = Set.of("admin", "user");

    public TeamMember {
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
        if (!ROLES.contains(role)) {
            throw new IllegalArgumentException("role: \"" + role + "\" (expected: admin or user)");
        }
        maxBudgetInTeam = Objects.requireNonNull(maxBudgetInTeam, "maxBudgetInTeam")
                .map(b -> Money.nonNegative("max_budget_in_team", b));
        createdAt = Columns.micros(Objects.requireNonNull(createdAt, "createdAt"));
        spend = Money.of(Objects.requireNonNull(spend, "spend"));
    }

    /** A member as it is written: its spend is the store's. */
    public TeamMember(String teamId, String userId, String role, Optional<BigDecimal> maxBudgetInTeam, Instant createdAt) {
        this(teamId, userId, role, maxBudgetInTeam, createdAt, BigDecimal.ZERO);
    }
}
