package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code litellm_settings.json_logs}: LiteLLM's config switch for JSON log lines. */
class JsonLogsSettingTest {

    @ParameterizedTest
    @ValueSource(strings = {"true", "True", "'true'", "os.environ/LOG_AS_JSON"})
    void trueSwitchesJsonLogsOnAndIsNotAnIgnoredKey(String value) throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("litellm_settings: {json_logs: " + value + "}"),
                Map.of("LOG_AS_JSON", "true"));

        assertThat(config.jsonLogs()).isTrue();
        assertThat(config.ignoredKeys()).isEmpty();
    }

    @Test
    void falseOrUnwrittenLeavesThePlainLog() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("litellm_settings: {json_logs: false}")).jsonLogs()).isFalse();
        assertThat(Configs.parse(Configs.withSection("litellm_settings: {num_retries: 1}")).jsonLogs()).isFalse();
    }

    @Test
    void aValueThatIsNotABooleanIsAProblemNamingThePath() {
        assertThat(Configs.problems(Configs.withSection("litellm_settings: {json_logs: sometimes}")))
                .containsExactly("litellm_settings.json_logs: \"sometimes\" (expected: true or false)");
    }
}
