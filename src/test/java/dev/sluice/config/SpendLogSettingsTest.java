package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code maximum_spend_logs_retention_period} and {@code _interval}: LiteLLM's periods, 30 days and a day unless set. */
class SpendLogSettingsTest {

    @Test
    void keepsThirtyDaysAndPrunesDailyUnlessSet() throws ConfigException {
        SpendLogSettings settings = Configs.parse(Configs.withSection("general_settings: {}")).general().spendLogs();

        assertThat(settings).isEqualTo(new SpendLogSettings(Duration.ofDays(30), Duration.ofDays(1)));
    }

    @Test
    void readsPeriodsInDaysHoursMinutesAndSeconds() throws ConfigException {
        SpendLogSettings settings = Configs.parse(Configs.withSection("general_settings: "
                + "{maximum_spend_logs_retention_period: \"7d\", maximum_spend_logs_retention_interval: \"60m\"}"))
                .general().spendLogs();

        assertThat(settings).isEqualTo(new SpendLogSettings(Duration.ofDays(7), Duration.ofHours(1)));
        assertThat(SpendLogSettings.period("24h")).isEqualTo(Duration.ofDays(1));
        assertThat(SpendLogSettings.period("3600s")).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void writesAPeriodInItsLargestWholeUnit() {
        assertThat(SpendLogSettings.text(Duration.ofDays(30))).isEqualTo("30d");
        assertThat(SpendLogSettings.text(Duration.ofHours(36))).isEqualTo("36h");
        assertThat(SpendLogSettings.text(Duration.ofMinutes(90))).isEqualTo("90m");
        assertThat(SpendLogSettings.text(Duration.ofSeconds(61))).isEqualTo("61s");
    }

    @Test
    void refusesWhatIsNotAPeriodNamingTheKeyAndTheForm() {
        for (String value : new String[] {"\"7 days\"", "\"0d\"", "\"-1d\"", "\"1w\"", "7"}) {
            assertThat(Configs.problems(Configs.withSection(
                    "general_settings: {maximum_spend_logs_retention_period: " + value + "}")))
                    .as(value)
                    .anySatisfy(p -> assertThat(p).contains("general_settings.maximum_spend_logs_retention_period")
                            .contains("7d, 24h, 60m or 3600s"));
        }
    }
}
