package dev.sluice.store;

import static dev.sluice.store.StoreFixtures.T0;
import static dev.sluice.store.StoreFixtures.dollars;
import static dev.sluice.store.StoreFixtures.json;
import static dev.sluice.store.StoreFixtures.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.StoreTest;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** sluice_teams through {@link TeamRepository}, on both engines. */
class TeamRepositoryTest {

    static Team everyField() {
        return Team.builder("team-eu", T0.plusNanos(1_500))
                .teamAlias("EU product")
                .models(List.of("gpt-4o", "gpt-4o-mini"))
                .maxBudget(new BigDecimal("500"))
                .budgetDuration("30d")
                .budgetResetAt(T0.plus(Duration.ofDays(30)))
                .spend(new BigDecimal("12.345678901234"))
                .rpmLimit(600L)
                .tpmLimit(1_000_000L)
                .routerSettings(json("""
                        {"routing_strategy": "simple-shuffle", "model_group_weights": {"gpt-4o": {"azure-eu": 9, "openai": 1}}}"""))
                .metadata(json("{\"cost_center\": 42}"))
                .modelAliases(java.util.Map.of("gpt-4", "gpt-4o", "house-model", "openai/gpt-4.1"))
                .build();
    }

    @StoreTest
    void aTeamReadsBackAsItWasWrittenFieldForField(Database database) {
        TeamRepository teams = new TeamRepository(database);

        teams.insert(everyField());

        Team read = teams.findById("team-eu").orElseThrow();
        assertThat(read).isEqualTo(everyField());
        assertThat(read.routerSettings().at("/model_group_weights/gpt-4o/azure-eu").asInt()).isEqualTo(9);
        assertThat(read.modelAliases()).containsExactlyInAnyOrderEntriesOf(
                java.util.Map.of("gpt-4", "gpt-4o", "house-model", "openai/gpt-4.1"));
    }

    @StoreTest
    void aTeamWithNothingSetReadsBackEmpty(Database database) {
        TeamRepository teams = new TeamRepository(database);

        teams.insert(team("bare"));

        Team read = teams.findById("bare").orElseThrow();
        assertThat(read).isEqualTo(team("bare"));
        assertThat(read.routerSettings().isEmpty()).isTrue();
        assertThat(read.teamAlias()).isEmpty();
        assertThat(read.modelAliases()).isEmpty();
    }

    @StoreTest
    void anIdIsTakenOnce(Database database) {
        TeamRepository teams = new TeamRepository(database);
        teams.insert(team("dup"));

        assertThatThrownBy(() -> teams.insert(team("dup")))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.reason()).isEqualTo(StoreException.Reason.CONFLICT));
    }

    @StoreTest
    void updateWritesEverySettingButLeavesSpendAndCreationAlone(Database database) {
        TeamRepository teams = new TeamRepository(database);
        teams.insert(team("team-eu"));
        teams.addSpend("team-eu", new BigDecimal("2"));

        assertThat(teams.update(everyField())).isTrue();

        assertThat(teams.findById("team-eu")).contains(everyField().toBuilder().spend(new BigDecimal("2")).createdAt(T0).build());
    }

    @StoreTest
    void unknownTeamsAreSaidToBeUnknown(Database database) {
        TeamRepository teams = new TeamRepository(database);

        assertThat(teams.findById("ghost")).isEmpty();
        assertThat(teams.update(team("ghost"))).isFalse();
        assertThat(teams.delete("ghost")).isFalse();
        assertThat(teams.addSpend("ghost", BigDecimal.ONE)).isFalse();
        assertThat(teams.resetSpend("ghost", T0)).isFalse();
    }

    @StoreTest
    void aDeletedTeamIsGoneAndItsKeysStay(Database database) {
        TeamRepository teams = new TeamRepository(database);
        KeyRepository keys = new KeyRepository(database);
        teams.insert(team("gone"));
        keys.insert(StoreFixtures.key("sk-member").toBuilder().teamId("gone").build());

        assertThat(teams.delete("gone")).isTrue();

        assertThat(teams.findById("gone")).isEmpty();
        assertThat(keys.findByHash(StoreFixtures.hash("sk-member")).orElseThrow().owner().teamId()).contains("gone");
    }

    @StoreTest
    void listingPagesThroughTeamsOldestFirst(Database database) {
        TeamRepository teams = new TeamRepository(database);
        for (int i = 0; i < 5; i++) {
            teams.insert(team("t" + i).toBuilder().createdAt(T0.minusSeconds(i)).build());
        }

        assertThat(teams.list(Page.of(1, 2))).extracting(Team::teamId).containsExactly("t4", "t3");
        assertThat(teams.list(Page.of(3, 2))).extracting(Team::teamId).containsExactly("t0");
        assertThat(teams.count()).isEqualTo(5);
    }

    @StoreTest
    void spendFromEightThreadsAtOnceAllCounts(Database database) throws Exception {
        TeamRepository teams = new TeamRepository(database);
        teams.insert(team("busy"));

        StoreFixtures.concurrently(8, thread -> {
            for (int i = 0; i < 50; i++) {
                teams.addSpend("busy", new BigDecimal("0.01"));
            }
        });

        assertThat(teams.findById("busy").orElseThrow().budget().spend()).isEqualTo(dollars("4"));
    }

    @StoreTest
    void aResetRunTwiceResetsOnce(Database database) {
        TeamRepository teams = new TeamRepository(database);
        Instant next = T0.plus(Duration.ofHours(1));
        teams.insert(team("r").toBuilder().budgetResetAt(T0).spend(new BigDecimal("9")).build());

        assertThat(teams.resetSpend("r", next)).isTrue();
        teams.addSpend("r", new BigDecimal("1"));
        assertThat(teams.resetSpend("r", next)).isFalse();

        Team read = teams.findById("r").orElseThrow();
        assertThat(read.budget().spend()).isEqualTo(dollars("1"));
        assertThat(read.budget().budgetResetAt()).contains(next);
    }

    @StoreTest
    void aResetIsDueFromItsInstantOn(Database database) {
        TeamRepository teams = new TeamRepository(database);
        teams.insert(team("due").toBuilder().budgetResetAt(T0).build());
        teams.insert(team("never"));

        assertThat(teams.dueForReset(T0.minusNanos(1_000), 10)).isEmpty();
        assertThat(teams.dueForReset(T0, 10)).extracting(Team::teamId).containsExactly("due");
    }
}
