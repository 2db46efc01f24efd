package dev.sluice.store;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a batch of newly logged spend rows adds to the daily rollups: one increment per day,
 * dimension and name, however many rows share it. A batch of a thousand calls by a handful
 * of keys to a few groups is a few dozen upserts, not thousands.
 */
final class DailyRollup {
    /** Sorted, so two ledgers upserting at once take their row locks in the same order. */
    private final Map<String, DailySpend> increments = new TreeMap<>();

    void add(SpendRow row) {
        LocalDate day = LocalDate.ofInstant(row.startedAt(), ZoneOffset.UTC);
        for (SpendDimension dimension : SpendDimension.values()) {
            for (String name : dimension.namesOf(row)) {
                increments.merge(dimension.column() + '\u0000' + name + '\u0000' + day,
                        DailySpend.of(day, dimension, name, row), DailySpend::plus);
            }
        }
    }

    Collection<DailySpend> increments() {
        return increments.values();
    }
}
