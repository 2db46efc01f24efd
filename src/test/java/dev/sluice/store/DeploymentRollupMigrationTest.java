package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.StoreTest;
import dev.sluice.testing.TestDatabase;
import dev.sluice.testing.TestDatabases;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Migration 14 rolls up, by UTC day, deployment and model group, the rows {@code
 * sluice_spend_logs} still held before it; a call no deployment served counts under none.
 * Those rows are every call PostgreSQL logged, and only the calls the embedded store logged
 * before migration 7: since then it logs calls in {@code sluice_spend_blocks}, encoded rows
 * SQL cannot read, which migration 14 leaves out (docs/observability.md says so).
 */
class DeploymentRollupMigrationTest {

    /** On PostgreSQL every call; on the embedded store the calls a version before migration 7 logged. */
    @StoreTest
    void whatTheSpendLogTableHeldBeforeTheRollupByDeploymentIsRolledUp(TestDatabase store) {
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

    /** Only the embedded store logs calls in blocks. */
    @Test
    void callsTheEmbeddedStoreLoggedInBlocksAreNotRolledUpByDeployment() {
        try (TestDatabase store = TestDatabases.h2()) {
            Database database = store.connect();
            database.migrate("13");
            Instant started = Instant.parse("2025-03-01T12:00:00Z");
            database.withConnection("log a block at schema version 13", connection -> {
                SpendBlocks.write(connection, List.of(SpendRow.builder("a", "g", started).deploymentId("g-east")
                        .cost(new BigDecimal("0.5")).status(200).build()));
                return null;
            });

            database.migrate();

            LocalDate day = LocalDate.of(2025, 3, 1);
            assertThat(new DailySpendRepository(database).between(SpendDimension.DEPLOYMENT_GROUP, day, day)).isEmpty();
        }
    }
}
