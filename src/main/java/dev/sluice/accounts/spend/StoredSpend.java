package dev.sluice.accounts.spend;

import dev.sluice.time.BudgetDuration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A scope's spend as the store last recorded it, which {@link SpendCounters} starts counting
 * from.
 *
 * @param spend    US dollars spent in the period that ends at {@code resetAt} (or ever, for a
 *                 budget that never resets)
 * @param duration the budget's {@code budget_duration} (or {@code time_period}); empty when
 *                 its spend never starts again
 * @param resetAt  when the store's period ends (LiteLLM's {@code budget_reset_at}); empty when
 *                 the store has not scheduled one yet, and then the period is taken to start
 *                 when the counter is seeded. Ignored without a duration.
 */
public record StoredSpend(double spend, Optional<BudgetDuration> duration, Optional<Instant> resetAt) {

    public StoredSpend {
        SpendCounters.checkDollars("spend", spend);
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(resetAt, "resetAt");
    }

    /** Spend of a budget that never resets. */
    public static StoredSpend lifetime(double spend) {
        return new StoredSpend(spend, Optional.empty(), Optional.empty());
    }

    /** Spend of a budget that resets every {@code duration}, with the store's period ending at {@code resetAt}. */
    public static StoredSpend periodic(double spend, BudgetDuration duration, Optional<Instant> resetAt) {
        return new StoredSpend(spend, Optional.of(duration), resetAt);
    }
}
