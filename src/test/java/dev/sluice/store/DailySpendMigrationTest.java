package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import java.time.LocalDate;
import java.util.TimeZone;
import org.assertj.core.groups.Tuple;
import org.h2.util.DateTimeUtils;

/** Migration 6 rolls up, by UTC day, what the spend log held before it, and the log keeps its rows. */
class DailySpendMigrationTest {

    /**
     * Run in Tokyo, nine hours ahead of UTC: the migration takes each call's UTC day whatever
     * zone the process runs in (H2 would take a zoned time's date in the JVM's own).
     */
    @StoreTest
    void whatWasLoggedBeforeTheRollupsIsRolledUpByDay(TestDatabase store) {
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        DateTimeUtils.resetCalendar();
        try {
            rollsUpByUtcDay(store);
        } finally {
            TimeZone.setDefault(zone);
            DateTimeUtils.resetCalendar();
        }
    }

    private static void rollsUpByUtcDay(TestDatabase store) {
        Database database = StoreFixtures.leftAtSchemaVersion(store, "5", "INSERT INTO sluice_spend_logs (call_id, "
                + "key_hash, team_id, user_id, model_group, deployment_id, prompt_tokens, completion_tokens, total_tokens, "
                + "cost, status, duration_ms, started_at) VALUES "
                + "('a', 'k1', 't1', NULL, 'g', 'g-east', 10, 1, 11, 0.5, 200, 5, TIMESTAMP WITH TIME ZONE '2025-03-01 23:59:59+00'), "
                + "('b', 'k1', NULL, NULL, 'g', NULL, 20, 2, 22, 0.25, 429, 5, TIMESTAMP WITH TIME ZONE '2025-03-01 10:00:00+00'), "
                + "('c', 'k1', 't1', NULL, 'g', 'g-east', 40, 4, 44, 1, 200, 5, TIMESTAMP WITH TIME ZONE '2025-03-02 01:00:00+02')");

        database.migrate();

        DailySpendRepository rollups = new DailySpendRepository(database);
        LocalDate first = LocalDate.of(2025, 3, 1);
        // 01:00 at UTC+2 is 23:00 UTC on the day before.
        assertThat(rollups.of(SpendDimension.KEY, "k1", first, first.plusDays(1)))
                .extracting(DailySpend::day, DailySpend::requests, DailySpend::successes, DailySpend::failures,
                        DailySpend::promptTokens, DailySpend::spend)
                .containsExactly(Tuple.tuple(first, 3L, 2L, 1L, 70L, StoreFixtures.dollars("1.75")));
        assertThat(rollups.of(SpendDimension.TEAM, "t1", first, first)).extracting(DailySpend::requests).containsExactly(2L);
        assertThat(rollups.of(SpendDimension.MODEL_GROUP, "g", first, first)).extracting(DailySpend::requests)
                .containsExactly(3L);
        assertThat(rollups.of(SpendDimension.DEPLOYMENT, "g-east", first, first)).extracting(DailySpend::requests)
                .containsExactly(2L);
        assertThat(rollups.of(SpendDimension.KEY_MODEL, SpendDimension.keyModel("k1", "g"), first, first))
                .extracting(DailySpend::spend).containsExactly(StoreFixtures.dollars("1.75"));
        assertThat(new SpendRepository(database).count()).isEqualTo(3);
    }
}
