package dev.sluice.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.Team;
import dev.sluice.store.VirtualKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which groups a key may call, from its own models and its team's. */
class ModelAccessTest {

    private static Caller.Keyed keyed(List<String> keyModels, List<String> teamModels) {
        VirtualKey key = VirtualKey.builder(VirtualKey.hash("sk-access-0001"), "sk-...0001", Instant.EPOCH)
                .models(keyModels).teamId(teamModels == null ? null : "t").build();
        Optional<Team> team = teamModels == null ? Optional.empty()
                : Optional.of(Team.builder("t", Instant.EPOCH).models(teamModels).build());
        return new Caller.Keyed(key, team, "sk-access-0001");
    }

    @Test
    void anEmptyListAndTheAllModelsNamesAllowEveryGroup() {
        assertThat(ModelAccess.allows(keyed(List.of(), null), "any")).isTrue();
        assertThat(ModelAccess.allows(keyed(List.of("all-proxy-models"), null), "any")).isTrue();
        assertThat(ModelAccess.allows(keyed(List.of("*"), null), "any")).isTrue();
    }

    @Test
    void aKeyListingGroupsMayCallOnlyThose() {
        Caller.Keyed caller = keyed(List.of("gpt-a"), null);

        assertThat(ModelAccess.allows(caller, "gpt-a")).isTrue();
        assertThat(ModelAccess.refusal(caller, "gpt-b")).hasValueSatisfying(error -> {
            assertThat(error.status()).isEqualTo(401);
            assertThat(error.type()).isEqualTo("key_model_access_denied");
            assertThat(error.getMessage()).isEqualTo("Key not allowed to access model. This key (sk-...0001) can only "
                    + "access models=[gpt-a]. Tried to access gpt-b.");
        });
    }

    @Test
    void aTeamNarrowsItsKeysAndAllTeamModelsDefersToIt() {
        assertThat(ModelAccess.allows(keyed(List.of(), List.of("gpt-a")), "gpt-b")).isFalse();
        assertThat(ModelAccess.refusal(keyed(List.of(), List.of("gpt-a")), "gpt-b").orElseThrow().type())
                .isEqualTo("team_model_access_denied");
        assertThat(ModelAccess.allows(keyed(List.of("all-team-models"), List.of("gpt-a")), "gpt-a")).isTrue();
        assertThat(ModelAccess.allows(keyed(List.of("all-team-models"), List.of("gpt-a")), "gpt-b")).isFalse();
        assertThat(ModelAccess.allows(keyed(List.of("gpt-a", "gpt-b"), List.of("gpt-a")), "gpt-b")).isFalse();
    }
}
