package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Configs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** general_settings. */
class GeneralSettingsTest {

    @Test
    void defaultsWhenNothingIsWritten() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection("")).general();

        assertThat(general.masterKey()).isEmpty();
        assertThat(general.store().databaseUrl()).isEmpty();
        assertThat(general.maxRequestBytes()).isEqualTo(32L * 1024 * 1024);
        assertThat(general.authFailures()).isEqualTo(AuthFailureSettings.DEFAULTS);
        assertThat(general.edge().requestHeadTimeout()).hasSeconds(30);
        assertThat(general.edge().maxOpenConnections()).isEmpty();
        assertThat(general.edge().openConnectionsBound()).isEqualTo(EdgeCapacity.openConnections(Runtime.getRuntime().maxMemory()));
        assertThat(general.edge().callsInFlightBound()).isEqualTo(EdgeCapacity.callsInFlight(Runtime.getRuntime().maxMemory()));
        assertThat(general.edge().bufferedRequestBudget()).isEqualTo(Runtime.getRuntime().maxMemory() / 8);
        assertThat(general.edge().connections()).isEqualTo(EdgeSettings.ConnectionSettings.DEFAULTS);
        assertThat(general.edge().requestBodyTimeout()).hasSeconds(15);
        assertThat(general.edge().json().maxDepth()).isEqualTo(128);
        assertThat(general.edge().json().maxTokens()).isEqualTo(250_000);
        assertThat(general.edge().livenessExitAfter()).hasSeconds(30);
    }

    @Test
    void readsTheFailedAuthenticationLimit() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection(
                "general_settings: {auth_failure_limit: 5, auth_failure_window_seconds: 30}")).general();

        assertThat(general.authFailures()).isEqualTo(new AuthFailureSettings(5, java.time.Duration.ofSeconds(30)));
    }

    @Test
    void readsTheEdgeLimits() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection("""
                general_settings:
                  request_head_timeout_seconds: 1.5
                  max_open_connections: 3
                  max_buffered_request_mb: 0.5
                  max_connections_per_ip: 7
                  trusted_proxies: [10.0.0.0/8, "fd00::/8"]
                  keep_alive_timeout_seconds: 2
                  request_body_timeout_seconds: 4
                  max_json_depth: 9
                  max_json_tokens: 1000
                  global_max_parallel_requests: 12
                  liveness_exit_after_seconds: 0
                """)).general();

        assertThat(general.edge().requestHeadTimeout()).isEqualTo(java.time.Duration.ofMillis(1500));
        assertThat(general.edge().openConnectionsBound()).isEqualTo(3);
        assertThat(general.edge().bufferedRequestBudget()).isEqualTo(524288);
        assertThat(general.edge().connections().maxPerAddress()).isEqualTo(7);
        assertThat(general.edge().connections().trustedProxies()).extracting(Object::toString).containsExactly("10.0.0.0/8", "fd00::/8");
        assertThat(general.edge().connections().keepAliveTimeout()).hasSeconds(2);
        assertThat(general.edge().requestBodyTimeout()).hasSeconds(4);
        assertThat(general.edge().json().maxDepth()).isEqualTo(9);
        assertThat(general.edge().json().maxTokens()).isEqualTo(1000);
        assertThat(general.edge().callsInFlightBound()).isEqualTo(12);
        assertThat(general.edge().livenessExitAfter()).isZero();
    }

    @Test
    void aTrustedProxyThatIsNoNetworkStopsTheStartNamingIt() {
        assertThatThrownBy(() -> Configs.parse(Configs.withSection("general_settings: {trusted_proxies: [lb.internal]}")))
                .hasMessageContaining("general_settings.trusted_proxies[0]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            1    | 1048576
            0.5  | 524288
            32   | 33554432
            """)
    void convertsMegabytesToBytes(String megabytes, long bytes) throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection("general_settings: {max_request_size_mb: " + megabytes + "}")).general();

        assertThat(general.maxRequestBytes()).isEqualTo(bytes);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            max_request_size_mb: 0     | general_settings.max_request_size_mb: 0 (expected: > 0)
            max_request_size_mb: -1    | general_settings.max_request_size_mb: -1 (expected: > 0)
            max_request_size_mb: big   | general_settings.max_request_size_mb: "big" (expected: a number > 0)
            request_head_timeout_seconds: 0 | general_settings.request_head_timeout_seconds: 0 (expected: > 0)
            max_open_connections: 0    | general_settings.max_open_connections: 0 (expected: > 0)
            max_open_connections: 1.5  | general_settings.max_open_connections: 1.5 (expected: an integer > 0)
            max_buffered_request_mb: 0 | general_settings.max_buffered_request_mb: 0 (expected: > 0)
            master_key: ""             | general_settings.master_key: **** (expected: a non-empty string)
            database_url: {host: db}   | general_settings.database_url: **** (expected: a non-empty string)
            auth_failure_limit: -1     | general_settings.auth_failure_limit: -1 (expected: >= 0)
            auth_failure_window_seconds: 0 | general_settings.auth_failure_window_seconds: 0 (expected: > 0)
            """)
    void checksEachGeneralSetting(String setting, String problem) {
        assertThat(Configs.problems(Configs.withSection("general_settings:\n  " + setting))).containsExactly(problem);
    }

    @Test
    void readsTheCredentials() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection("""
                general_settings:
                  master_key: sk-1234
                  database_url: postgresql://user:pass@db:5432/litellm
                """)).general();

        assertThat(general.masterKey()).contains(new Secret("sk-1234"));
        assertThat(general.store().databaseUrl()).contains(new Secret("postgresql://user:pass@db:5432/litellm"));
    }
}
