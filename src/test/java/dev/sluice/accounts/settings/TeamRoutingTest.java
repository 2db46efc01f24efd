package dev.sluice.accounts.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.store.Team;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A team's router_settings, read once into the overrides its calls take. */
class TeamRoutingTest {
    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) Json.parse(text.getBytes());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Team team(String settings) {
        return Team.builder("team-t", Instant.EPOCH).routerSettings(json(settings)).build();
    }

    @Test
    void aCallTakesTheFallbacksOfTheGroupItCalls() {
        TeamRouting routing = TeamRouting.of(team("""
                {"num_retries": 1, "timeout": 2.5, "routing_strategy": "least-busy",
                 "fallbacks": [{"a": ["b"]}, {"c": ["d"]}], "deployment_weights": {"d1": 3}}"""));

        assertThat(routing.forGroup("a").fallbacks()).hasValue(List.of("b"));
        assertThat(routing.forGroup("c").fallbacks()).hasValue(List.of("d"));
        assertThat(routing.forGroup("x").fallbacks()).isEmpty();
        assertThat(routing.forGroup("a").numRetries()).hasValue(1);
        assertThat(routing.forGroup("a").timeout()).hasValue(Duration.ofMillis(2500));
        assertThat(routing.forGroup("a").routingStrategy()).hasValue("least-busy");
        assertThat(routing.forGroup("a").deploymentWeights()).isEqualTo(Map.of("d1", 3.0));
    }

    @Test
    void aStoredTeamWhoseSettingsNoLongerReadRoutesAsTheConfigSays() {
        assertThat(TeamRouting.of(team("{\"num_retries\": -1}"))).isEqualTo(TeamRouting.NONE);
        assertThat(TeamRouting.of(team("{}")).isEmpty()).isTrue();
    }

    @Test
    void aWrongValueIsRefusedWithItsRuleNamingItsField() {
        assertThatThrownBy(() -> TeamRouting.check(json("{\"deployment_weights\": {\"d1\": 2000000}}"), "router_settings"))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).isEqualTo(
                            "Invalid 'router_settings.deployment_weights.d1': 2000000 (expected: <= 1000000).");
                });
        assertThatThrownBy(() -> TeamRouting.check(json("{\"timeout\": 0}"), "router_settings"))
                .hasMessage("Invalid 'router_settings.timeout': 0 (expected: > 0).");
    }
}
