package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code router_settings.redis_socket_timeout}: unset unless written (the gateway then keeps its
 * built-in budget), else a positive number of seconds, from the file or from LiteLLM's
 * {@code REDIS_SOCKET_TIMEOUT}.
 */
class RedisSocketTimeoutSettingTest {

    @Test
    void isUnsetWhenNotWritten() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("")).router();

        assertThat(router.redis().redisSocketTimeout()).isEmpty();
        assertThat(router.sources()).contains(entry("redis_socket_timeout", "default"));
    }

    @Test
    void takesWholeAndFractionalSeconds() throws ConfigException {
        assertThat(timeout("router_settings: {redis_socket_timeout: 2}")).isEqualTo(Duration.ofSeconds(2));
        assertThat(timeout("router_settings: {redis_socket_timeout: 0.05}")).isEqualTo(Duration.ofMillis(50));
        assertThat(timeout("router_settings: {redis_socket_timeout: \"1.5\"}")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void theSettingsApiShowsItInSecondsAndNullWhenUnset() throws ConfigException {
        RouterSettings set = Configs.parse(Configs.withSection("router_settings: {redis_socket_timeout: 0.25}")).router();
        RouterSettings unset = Configs.parse(Configs.withSection("")).router();

        assertThat(RouterSettingsJson.values(set).get("redis_socket_timeout").asDouble()).isEqualTo(0.25);
        assertThat(RouterSettingsJson.values(unset).get("redis_socket_timeout").isNull()).isTrue();
    }

    @Test
    void refusesZeroNegativeAndText() {
        assertThat(Configs.problems(Configs.withSection("router_settings: {redis_socket_timeout: 0}")))
                .containsExactly("router_settings.redis_socket_timeout: 0 (expected: > 0)");
        assertThat(Configs.problems(Configs.withSection("router_settings: {redis_socket_timeout: -0.5}")))
                .containsExactly("router_settings.redis_socket_timeout: -0.5 (expected: > 0)");
        assertThat(Configs.problems(Configs.withSection("router_settings: {redis_socket_timeout: soon}")))
                .containsExactly("router_settings.redis_socket_timeout: \"soon\" (expected: a number of seconds > 0)");
    }

    @Test
    void readsLiteLlmsVariableWhenTheFileDoesNotSetIt() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection(""), Map.of("REDIS_SOCKET_TIMEOUT", "0.1")).router();

        assertThat(router.redis().redisSocketTimeout()).contains(Duration.ofMillis(100));
        assertThat(router.sources()).contains(entry("redis_socket_timeout", "environment"));
    }

    @Test
    void theFileWinsOverTheVariable() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("router_settings: {redis_socket_timeout: 2}"),
                Map.of("REDIS_SOCKET_TIMEOUT", "0.1")).router();

        assertThat(router.redis().redisSocketTimeout()).contains(Duration.ofSeconds(2));
        assertThat(router.sources()).contains(entry("redis_socket_timeout", "router_settings"));
    }

    @Test
    void refusesABadVariableNamingIt() {
        assertThat(Configs.problems(Configs.withSection(""), Map.of("REDIS_SOCKET_TIMEOUT", "0")))
                .containsExactly("router_settings.redis_socket_timeout: os.environ/REDIS_SOCKET_TIMEOUT = \"0\" (expected: > 0)");
    }

    private static Duration timeout(String section) throws ConfigException {
        return Configs.parse(Configs.withSection(section)).router().redis().redisSocketTimeout().orElseThrow();
    }
}
