package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The health-check keys of general_settings, and model_info.mode, which decides how a deployment is probed. */
class HealthCheckSettingsTest {

    @Test
    void defaultsToProbingOnEachCallWithinTenSeconds() throws ConfigException {
        HealthCheckSettings health = Configs.parse(Configs.withSection("")).general().healthChecks();

        assertThat(health).isEqualTo(new HealthCheckSettings(false, Duration.ofSeconds(300), Duration.ofSeconds(10), false));
        assertThat(health.benches()).isFalse();
    }

    @Test
    void readsEveryKey() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                general_settings:
                  background_health_checks: true
                  health_check_interval: 1.5
                  health_check_timeout: 2
                  health_check_bench_unhealthy: "true"
                """));

        assertThat(config.general().healthChecks())
                .isEqualTo(new HealthCheckSettings(true, Duration.ofMillis(1500), Duration.ofSeconds(2), true));
        assertThat(config.general().healthChecks().benches()).isTrue();
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void theIntervalAndTheBenchWrittenWithoutBackgroundChecksAreListedAsNotActedOn() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                general_settings:
                  health_check_interval: 60
                  health_check_timeout: 3
                  health_check_bench_unhealthy: true
                """));

        assertThat(config.general().healthChecks().benches()).isFalse();
        assertThat(config.ignoredKeys()).containsExactly("general_settings.health_check_interval",
                "general_settings.health_check_bench_unhealthy");
    }

    @Test
    void benchSwitchedOffWithoutBackgroundChecksIsNotListed() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("general_settings: {health_check_bench_unhealthy: false}"));

        assertThat(config.ignoredKeys()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            background_health_checks: yes please | general_settings.background_health_checks: "yes please" (expected: true or false)
            health_check_interval: 0             | general_settings.health_check_interval: 0 (expected: > 0)
            health_check_interval: soon          | general_settings.health_check_interval: "soon" (expected: a number of seconds > 0)
            health_check_timeout: -1             | general_settings.health_check_timeout: -1 (expected: > 0)
            health_check_bench_unhealthy: 1      | general_settings.health_check_bench_unhealthy: 1 (expected: true or false)
            """)
    void checksEachHealthSetting(String setting, String problem) {
        assertThat(Configs.problems(Configs.withSection("general_settings:\n  " + setting))).containsExactly(problem);
    }

    @Test
    void readsTheModesSluiceProbesAndListsLiteLlmsOthersAsNotActedOn() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - {model_name: chat, litellm_params: {model: openai/a}, model_info: {mode: chat}}
                  - {model_name: text, litellm_params: {model: openai/b}, model_info: {mode: completion}}
                  - {model_name: vectors, litellm_params: {model: openai/c}, model_info: {mode: embedding}}
                  - {model_name: images, litellm_params: {model: openai/d}, model_info: {mode: image_generation}}
                  - {model_name: batches, litellm_params: {model: openai/f}, model_info: {mode: batch}}
                  - {model_name: plain, litellm_params: {model: openai/e}}
                """);

        assertThat(config.deployments()).extracting(d -> d.info().mode().orElse(null))
                .containsExactly(ModelMode.CHAT, ModelMode.COMPLETION, ModelMode.EMBEDDING, ModelMode.IMAGE_GENERATION, null, null);
        assertThat(config.ignoredKeys()).containsExactly("model_list[4].model_info.mode");
    }

    @Test
    void aModeThatIsNotTextIsAProblem() {
        assertThat(Configs.problems("""
                model_list:
                  - {model_name: chat, litellm_params: {model: openai/a}, model_info: {mode: [chat]}}
                """)).containsExactly("model_list[0].model_info.mode: a list (expected: a non-empty string)");
    }

    @Test
    void checkConfigPrintsTheHealthSettingsAndSaysWhichAreUnused() throws ConfigException {
        String printed = ConfigPrinter.print(Configs.parse(Configs.withSection("""
                general_settings: {health_check_timeout: 2.5, health_check_bench_unhealthy: true}
                """)));

        assertThat(printed).contains("""
                  background_health_checks: false
                  health_check_interval: 300  # unused: background_health_checks is off
                  health_check_timeout: 2.5
                  health_check_bench_unhealthy: true  # unused: background_health_checks is off
                """);
    }
}
