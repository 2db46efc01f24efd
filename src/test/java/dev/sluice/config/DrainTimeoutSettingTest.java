package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code general_settings.drain_timeout_seconds}: 30 s unless set, and only a positive number of seconds. */
class DrainTimeoutSettingTest {

    @Test
    void defaultsToThirtySeconds() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("general_settings: {}")).general().drainTimeout())
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void takesSecondsWithAFraction() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("general_settings: {drain_timeout_seconds: 2.5}")).general().drainTimeout())
                .isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void refusesZeroNegativeAndText() {
        assertThat(Configs.problems(Configs.withSection("general_settings: {drain_timeout_seconds: 0}")))
                .anySatisfy(p -> assertThat(p).contains("general_settings.drain_timeout_seconds"));
        assertThat(Configs.problems(Configs.withSection("general_settings: {drain_timeout_seconds: -1}")))
                .anySatisfy(p -> assertThat(p).contains("general_settings.drain_timeout_seconds"));
        assertThat(Configs.problems(Configs.withSection("general_settings: {drain_timeout_seconds: soon}")))
                .anySatisfy(p -> assertThat(p).contains("general_settings.drain_timeout_seconds"));
    }
}
