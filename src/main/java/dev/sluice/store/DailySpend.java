package dev.sluice.store;

import dev.sluice.model.Required;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One row of the daily rollups: the calls of one UTC day under one name of a dimension (a
 * key's hash, a team, a model group, a deployment, a tag).
 *
 * @param successes calls answered with a 2xx or 3xx status; the rest are {@code failures}
 * @param spend     dollars, {@link Money scale 12}
 */
public record DailySpend(
        LocalDate day,
        SpendDimension dimension,
        String name,
        long requests,
        long successes,
        long failures,
        long promptTokens,
        long completionTokens,
        long cachedTokens,
        BigDecimal spend) {

    public DailySpend {
        Required.nonNull("day, dimension, name", day, dimension, name);
        spend = Money.of(Objects.requireNonNull(spend, "spend"));
    }

    /** The rollup of one spend row under {@code name}. */
    static DailySpend of(LocalDate day, SpendDimension dimension, String name, SpendRow row) {
        boolean succeeded = row.status() < 400;
        return new DailySpend(day, dimension, name, 1, succeeded ? 1 : 0, succeeded ? 0 : 1, row.tokens().promptTokens(),
                row.tokens().completionTokens(), row.tokens().cachedTokens(), row.cost());
    }

    /** This rollup and {@code other}'s counts together (same day, dimension and name). */
    DailySpend plus(DailySpend other) {
        return new DailySpend(day, dimension, name, requests + other.requests, successes + other.successes,
                failures + other.failures, promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                cachedTokens + other.cachedTokens, spend.add(other.spend));
    }
}
