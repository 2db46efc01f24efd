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
    private static final CallerOverrides TEAM = new CallerOverrides(OptionalInt.of(4), Optional.of(Duration.ofSeconds(30)),
            Optional.of(List.of("team-fallback")), Map.of("g", List.of("big")), Map.of(), Map.of(), false,
            Optional.of("least-busy"), Map.of("d1", 1.0));

    @Test
    void whatTheRequestSetsWinsAndWhatItLeavesOutComesFromTheTeam() {
        CallerOverrides request = new CallerOverrides(OptionalInt.of(1), Optional.empty(), Optional.empty(),
                Map.of("h", List.of("bigger")), Map.of(), Map.of(), false, Optional.empty(), Map.of());

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
