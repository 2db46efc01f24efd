package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import org.junit.jupiter.api.Test;

/** {@code general_settings.public_metrics} and LiteLLM's {@code litellm_settings.require_auth_for_metrics_endpoint}. */
class MetricsAccessSettingTest {

    private static MetricsAccess read(String sections) throws ConfigException {
        return Configs.parse(Configs.withSection(sections)).general().metrics();
    }

    @Test
    void byDefaultAnyoneScrapesAndOnlyTheMasterKeySeesNames() throws ConfigException {
        assertThat(read("general_settings: {}")).isEqualTo(new MetricsAccess(false, false));
    }

    @Test
    void publicMetricsMakesNamesPublic() throws ConfigException {
        assertThat(read("general_settings: {public_metrics: true}")).isEqualTo(new MetricsAccess(false, true));
        assertThat(read("general_settings: {public_metrics: false}")).isEqualTo(new MetricsAccess(false, false));
    }

    @Test
    void liteLlmsKeyMapsFaithfully() throws ConfigException {
        assertThat(read("litellm_settings: {require_auth_for_metrics_endpoint: true}")).isEqualTo(new MetricsAccess(true, false));
        assertThat(read("litellm_settings: {require_auth_for_metrics_endpoint: false}")).isEqualTo(new MetricsAccess(false, true));
        assertThat(read("litellm_settings: {require_auth_for_metrics_endpoint: true}\ngeneral_settings: {public_metrics: true}"))
                .isEqualTo(new MetricsAccess(true, true));
    }

    @Test
    void refusesAContradictionAndText() {
        assertThat(Configs.problems(Configs.withSection(
                "litellm_settings: {require_auth_for_metrics_endpoint: false}\ngeneral_settings: {public_metrics: false}")))
                .anySatisfy(p -> assertThat(p).contains("general_settings.public_metrics").contains("remove one of the two"));
        assertThat(Configs.problems(Configs.withSection("general_settings: {public_metrics: sometimes}")))
                .anySatisfy(p -> assertThat(p).contains("general_settings.public_metrics"));
    }

    @Test
    void neitherKeyIsListedAsIgnored() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection(
                "litellm_settings: {require_auth_for_metrics_endpoint: true}\ngeneral_settings: {public_metrics: true}")).ignoredKeys())
                .isEmpty();
    }
}
