package dev.sluice.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which models a key may call, from its own models and its team's. */
class ModelAccessTest {
    private static final Map<String, List<String>> NO_ACCESS_GROUPS = Map.of();

    private static Caller.Keyed keyed(List<String> keyModels, List<String> teamModels) {
        VirtualKey key = VirtualKey.builder(VirtualKey.hash("sk-access-0001"), "sk-...0001", Instant.EPOCH)
                .models(keyModels).teamId(teamModels == null ? null : "t").build();
        Optional<Team> team = teamModels == null ? Optional.empty()
                : Optional.of(Team.builder("t", Instant.EPOCH).models(teamModels).build());
        return new Caller.Keyed(key, team, "sk-access-0001");
    }

    private static boolean allows(Caller.Keyed caller, String group) {
        return ModelAccess.allows(caller, CalledModel.of(group), NO_ACCESS_GROUPS);
    }

    @Test
    void anEmptyListAndTheAllModelsNamesAllowEveryGroup() {
        assertThat(allows(keyed(List.of(), null), "any")).isTrue();
        assertThat(allows(keyed(List.of("all-proxy-models"), null), "any")).isTrue();
        assertThat(allows(keyed(List.of("*"), null), "any")).isTrue();
    }

    @Test
    void aKeyListingGroupsMayCallOnlyThoseAndIsRefusedWithLiteLlmsForbidden() {
        Caller.Keyed caller = keyed(List.of("gpt-a", "gpt-c"), null);

        assertThat(allows(caller, "gpt-a")).isTrue();
        assertThat(ModelAccess.refusal(caller, CalledModel.of("gpt-b"), NO_ACCESS_GROUPS)).hasValueSatisfying(error -> {
            assertThat(error.status()).isEqualTo(403);
            assertThat(error.type()).isEqualTo("key_model_access_denied");
            assertThat(error.param()).isEqualTo("model");
            assertThat(error.code()).isEqualTo("403");
            assertThat(error.getMessage()).isEqualTo("key not allowed to access model. This key can only access "
                    + "models=['gpt-a', 'gpt-c']. Tried to access gpt-b");
        });
    }

    @Test
    void aTeamNarrowsItsKeysAndAllTeamModelsDefersToIt() {
        assertThat(allows(keyed(List.of(), List.of("gpt-a")), "gpt-b")).isFalse();
        assertThat(ModelAccess.refusal(keyed(List.of(), List.of("gpt-a")), CalledModel.of("gpt-b"), NO_ACCESS_GROUPS)
                .orElseThrow().getMessage())
                .isEqualTo("team not allowed to access model. This team can only access models=['gpt-a']. Tried to access gpt-b");
        assertThat(allows(keyed(List.of("all-team-models"), List.of("gpt-a")), "gpt-a")).isTrue();
        assertThat(allows(keyed(List.of("all-team-models"), List.of("gpt-a")), "gpt-b")).isFalse();
        assertThat(allows(keyed(List.of("gpt-a", "gpt-b"), List.of("gpt-a")), "gpt-b")).isFalse();
    }

    @Test
    void aPatternAllowsEveryNameItMatches() {
        Caller.Keyed caller = keyed(List.of("openai/*"), null);

        assertThat(ModelAccess.allows(caller, new CalledModel("openai/gpt-4o", "*"), NO_ACCESS_GROUPS)).isTrue();
        assertThat(ModelAccess.allows(caller, new CalledModel("anthropic/claude", "*"), NO_ACCESS_GROUPS)).isFalse();
        assertThat(ModelAccess.allows(caller, new CalledModel("azure/openai/x", "*"), NO_ACCESS_GROUPS)).isFalse();
    }

    @Test
    void anAccessGroupAllowsEveryGroupInItAndOnlyThose() {
        Map<String, List<String>> accessGroups = Map.of("beta-models", List.of("gpt-a", "openai/*"));
        Caller.Keyed caller = keyed(List.of("beta-models"), null);

        assertThat(ModelAccess.allows(caller, CalledModel.of("gpt-a"), accessGroups)).isTrue();
        assertThat(ModelAccess.allows(caller, new CalledModel("openai/gpt-4o", "openai/*"), accessGroups)).isTrue();
        assertThat(ModelAccess.allows(caller, CalledModel.of("gpt-b"), accessGroups)).isFalse();
        assertThat(ModelAccess.allows(keyed(List.of("alpha-models"), null), CalledModel.of("gpt-a"), accessGroups)).isFalse();
    }

    @Test
    void anAliasPassesWhenEitherItOrTheGroupItStandsForIsAllowed() {
        assertThat(ModelAccess.allows(keyed(List.of("gpt-4o"), null), new CalledModel("gpt-4", "gpt-4o"), NO_ACCESS_GROUPS))
                .isTrue();
        assertThat(ModelAccess.allows(keyed(List.of("gpt-4"), null), new CalledModel("gpt-4", "gpt-4o"), NO_ACCESS_GROUPS))
                .isTrue();
        assertThat(ModelAccess.allows(keyed(List.of("gpt-5"), null), new CalledModel("gpt-4", "gpt-4o"), NO_ACCESS_GROUPS))
                .isFalse();
    }
}
