package dev.sluice.store;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a key's {@code model_max_budget}: {@code {"budget_limit": 0.5, "time_period": "1d"}}.
 *
 * @param budgetLimit dollars the key may spend on the model group in one period
 * @param timePeriod  the period as written ({@code 30s}, {@code 30m}, {@code 30h}, {@code 30d});
 *                    empty for a budget that never resets
 */
public record ModelBudget(BigDecimal budgetLimit, Optional<String> timePeriod) {
    public ModelBudget {
        budgetLimit = Money.nonNegative("budget_limit", budgetLimit);
        Objects.requireNonNull(timePeriod, "timePeriod");
    }

    public static ModelBudget of(BigDecimal budgetLimit, String timePeriod) {
        return new ModelBudget(budgetLimit, Optional.ofNullable(timePeriod));
    }
}
