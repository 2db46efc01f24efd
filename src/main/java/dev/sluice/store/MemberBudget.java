package dev.sluice.store;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A team member's budget within its team and what it has spent there: LiteLLM's
 * {@code max_budget_in_team} and {@code LiteLLM_TeamMembership.spend}, held against the
 * calls of the member's keys of that team.
 *
 * @param maxBudget dollars, {@link Money scale 12}
 * @param spend     dollars, {@link Money scale 12}
 */
public record MemberBudget(String teamId, String userId, BigDecimal maxBudget, BigDecimal spend) {
    public MemberBudget {
        Objects.requireNonNull(teamId, "teamId");
        Objects.requireNonNull(userId, "userId");
        maxBudget = Money.of(Objects.requireNonNull(maxBudget, "maxBudget"));
        spend = Money.of(Objects.requireNonNull(spend, "spend"));
    }
}
