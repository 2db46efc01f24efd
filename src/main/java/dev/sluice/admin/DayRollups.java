package dev.sluice.admin;

import dev.sluice.store.DailySpend;
import dev.sluice.store.DailySpendRepository;
import dev.sluice.store.SpendDimension;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The daily rollups of one dimension between two dates, by day: what a report by day reads.
 * A report reads one dimension at a time, each a query over the rollups' index by day.
 */
final class DayRollups {
    private DayRollups() {}

    static Map<LocalDate, List<DailySpend>> of(DailySpendRepository rollups, SpendDimension dimension, SpendDates dates) {
        Map<LocalDate, List<DailySpend>> byDay = new TreeMap<>();
        for (DailySpend rollup : rollups.between(dimension, dates.start(), dates.end())) {
            byDay.computeIfAbsent(rollup.day(), day -> new ArrayList<>()).add(rollup);
        }
        return byDay;
    }

    /** The tokens a rollup counts, as LiteLLM's {@code total_tokens}: prompt and completion. */
    static long tokens(DailySpend rollup) {
        return rollup.promptTokens() + rollup.completionTokens();
    }

    /** A {@link SpendDimension#KEY_MODEL} or {@link SpendDimension#KEY_TEAM} name's key hash: before its first colon. */
    static String key(DailySpend rollup) {
        return rollup.name().substring(0, rollup.name().indexOf(':'));
    }

    /** What follows the key hash in a {@link SpendDimension#KEY_MODEL} or {@link SpendDimension#KEY_TEAM} name. */
    static String afterKey(DailySpend rollup) {
        return rollup.name().substring(rollup.name().indexOf(':') + 1);
    }

    /** LiteLLM's day of a report, as PostgreSQL's {@code date_trunc('day', ...)} comes back from its database. */
    static String dayShown(LocalDate day) {
        return day + "T00:00:00+00:00";
    }

    static double dollars(BigDecimal amount) {
        return amount.doubleValue();
    }
}
