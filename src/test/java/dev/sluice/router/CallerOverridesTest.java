package dev.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A request's own routing overrides laid over its team's. */
class CallerOverridesTest {
    private static final CallerOverrides TEAM = CallerOverrides.builder().numRetries(OptionalInt.of(4))
            .timeout(Optional.of(Duration.ofSeconds(30))).fallbacks(Optional.of(List.of("team-fallback")))
            .contextWindowFallbacks(Map.of("g", List.of("big"))).routingStrategy(Optional.of("least-busy"))
            .deploymentWeights(Map.of("d1", 1.0)).build();

    @Test
    void whatTheRequestSetsWinsAndWhatItLeavesOutComesFromTheTeam() {
        CallerOverrides request = CallerOverrides.builder().numRetries(OptionalInt.of(1))
                .contextWindowFallbacks(Map.of("h", List.of("bigger"))).build();

        CallerOverrides merged = request.over(TEAM);

        assertThat(merged.numRetries()).hasValue(1);
        assertThat(merged.timeout()).hasValue(Duration.ofSeconds(30));
        assertThat(merged.fallbacks()).hasValue(List.of("team-fallback"));
        assertThat(merged.contextWindowFallbacks()).containsOnlyKeys("g", "h");
        assertThat(merged.routingStrategy()).hasValue("least-busy");
        assertThat(merged.deploymentWeights()).containsEntry("d1", 1.0);
        assertThat(merged.disableFallbacks()).isFalse();
    }

    @Test
    void noOverridesOverNoneIsNone() {
        assertThat(CallerOverrides.NONE.over(CallerOverrides.NONE)).isEqualTo(CallerOverrides.NONE);
        assertThat(CallerOverrides.NONE.over(TEAM)).isEqualTo(TEAM);
    }
}
