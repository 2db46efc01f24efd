package dev.sluice.store;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The budget an account sets and what it has spent of it: the value a key, a team, a user, an
 * organization and a customer each hold in the same four columns of their tables
 * ({@code max_budget}, {@code budget_duration}, {@code budget_reset_at}, {@code spend}).
 * Checked once here, so every account kind refuses the same bad values with the same message.
 *
 * @param maxBudget      dollars the account may spend per budget period (ever, without one)
 * @param budgetDuration the budget period as written: {@code 30s}, {@code 30m}, {@code 30h}, {@code 30d}
 * @param budgetResetAt  when spend next goes back to zero
 * @param spend          dollars spent in the current period, {@link Money scale 12}
 */
public record AccountBudget(
        Optional<BigDecimal> maxBudget, Optional<String> budgetDuration, Optional<Instant> budgetResetAt, BigDecimal spend) {

    /** No budget and nothing spent. */
    public static final AccountBudget NONE = new AccountBudget(Optional.empty(), Optional.empty(), Optional.empty(), Money.ZERO);

    public AccountBudget {
        maxBudget = Objects.requireNonNull(maxBudget, "maxBudget").map(b -> Money.nonNegative("max_budget", b));
        Objects.requireNonNull(budgetDuration, "budgetDuration");
        budgetResetAt = Columns.micros(Objects.requireNonNull(budgetResetAt, "budgetResetAt"));
        spend = Money.nonNegative("spend", spend);
    }

    /** From the values a builder holds, each {@code null} when not set. */
    static AccountBudget of(BigDecimal maxBudget, String budgetDuration, Instant budgetResetAt, BigDecimal spend) {
        return new AccountBudget(Optional.ofNullable(maxBudget), Optional.ofNullable(budgetDuration),
                Optional.ofNullable(budgetResetAt), spend);
    }
}
