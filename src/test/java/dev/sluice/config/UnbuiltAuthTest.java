package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A config that counts on a way of authenticating callers Sluice does not build (JWT, a custom
 * auth module, OAuth2) fails closed: without a master key it would let every caller in, so it
 * does not start. With a master key only keys get in, and those settings are merely not acted on.
 */
class UnbuiltAuthTest {

    @Test
    void withoutAMasterKeyEachOfThemRefusesToStart() {
        assertThat(Configs.problems(Configs.withSection("general_settings: {enable_jwt_auth: true}")))
                .singleElement().asString()
                .startsWith("general_settings.enable_jwt_auth: true (expected: no enable_jwt_auth without a master_key")
                .contains("lets every caller in");
        for (String setting : new String[] {"litellm_jwtauth: {admin_jwt_scope: litellm_proxy_admin}",
                "custom_auth: custom_auth.user_api_key_auth", "enable_oauth2_auth: true", "enable_oauth2_proxy_auth: \"True\""}) {
            assertThat(Configs.problems(Configs.withSection("general_settings: {" + setting + "}")))
                    .as(setting).singleElement().asString().contains("without a master_key");
        }
    }

    @Test
    void turnedOffItChangesNothing() throws ConfigException {
        assertThat(Configs.problemsOrNone(Configs.withSection("general_settings: {enable_jwt_auth: false}"))).isEmpty();
    }

    @Test
    void withAMasterKeyFromTheFileOrTheEnvironmentItIsOnlyNotActedOn() throws ConfigException {
        SluiceConfig written = Configs.parse(Configs.withSection("general_settings: {master_key: sk-1234, enable_jwt_auth: true}"));
        assertThat(written.ignoredKeys()).contains("general_settings.enable_jwt_auth");

        SluiceConfig fromEnv = Configs.parse(Configs.withSection("general_settings: {custom_auth: my_auth.check}"),
                Map.of("LITELLM_MASTER_KEY", "sk-1234"));
        assertThat(fromEnv.ignoredKeys()).contains("general_settings.custom_auth");
    }
}
