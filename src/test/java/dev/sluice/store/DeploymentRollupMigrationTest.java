package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import java.time.LocalDate;
import org.assertj.core.groups.Tuple;

/**
 * Migration 14 rolls up, by UTC day, deployment and model group, what the spend log still held
 * before it; a call no deployment served counts under none.
 */
class DeploymentRollupMigrationTest {

    @StoreTest
    void whatWasLoggedBeforeTheRollupByDeploymentIsRolledUp(TestDatabase store) {
        Database database = StoreFixtures.leftAtSchemaVersion(store, "13", "INSERT INTO sluice_spend_logs (call_id, "
                + "key_hash, team_id, user_id, model_group, deployment_id, prompt_tokens, completion_tokens, total_tokens, "
                + "cost, status, duration_ms, started_at) VALUES "
                + "('a', 'k1', NULL, NULL, 'g', 'g-east', 10, 1, 11, 0.5, 200, 5, TIMESTAMP WITH TIME ZONE '2025-03-01 23:59:59+00'), "
                + "('b', 'k1', NULL, NULL, 'g', NULL, 20, 2, 22, 0, 500, 5, TIMESTAMP WITH TIME ZONE '2025-03-01 10:00:00+00'), "
                + "('c', NULL, NULL, NULL, 'g', 'g-east', 40, 4, 44, 1, 200, 5, TIMESTAMP WITH TIME ZONE '2025-03-02 01:00:00+02'), "
                + "('d', NULL, NULL, NULL, 'h', 'g-east', 1, 1, 2, 0.125, 200, 5, TIMESTAMP WITH TIME ZONE '2025-03-01 12:00:00+00')");

        database.migrate();

        DailySpendRepository rollups = new DailySpendRepository(database);
        LocalDate first = LocalDate.of(2025, 3, 1);
        // 01:00 at UTC+2 is 23:00 UTC on the day before.
        assertThat(rollups.between(SpendDimension.DEPLOYMENT_GROUP, first, first.plusDays(1)))
                .extracting(DailySpend::day, DailySpend::name, DailySpend::requests, DailySpend::promptTokens, DailySpend::spend)
                .containsExactly(
                        Tuple.tuple(first, SpendDimension.deploymentGroup("g-east", "g"), 2L, 50L, StoreFixtures.dollars("1.5")),
                        Tuple.tuple(first, SpendDimension.deploymentGroup("g-east", "h"), 1L, 1L, StoreFixtures.dollars("0.125")));
    }
}
