package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.net.Cidr;
import dev.sluice.testing.Configs;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The general_settings keys that bound what a deployment given through the model API may reach. */
class ModelApiSettingsTest {

    @Test
    void byDefaultTheModelApiNamesNoVariableAndKeepsTheDefaultNetworks() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("")).general().modelApi()).isEqualTo(ModelApiSettings.DEFAULTS);
    }

    @Test
    void readsEveryKey() throws ConfigException {
        SluiceConfig config = Configs.parse(Configs.withSection("""
                general_settings:
                  admin_allowed_env_vars: [OPENAI_API_KEY, AZURE_API_KEY]
                  admin_api_base_denied_networks: [10.0.0.0/8, "fd00::/8"]
                  admin_api_base_allowed_networks: [169.254.170.2]
                  admin_allowed_credentials: [files, application_default, aws_default_chain]
                """));

        ModelApiSettings settings = config.general().modelApi();
        assertThat(settings.allowedEnvVars()).isEqualTo(Set.of("OPENAI_API_KEY", "AZURE_API_KEY"));
        assertThat(settings.deniedNetworks()).containsExactly(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8"));
        assertThat(settings.allowedNetworks()).containsExactly(Cidr.parse("169.254.170.2/32"));
        assertThat(settings.allowedCredentials()).containsExactlyInAnyOrder(AmbientCredentials.Kind.values());
        assertThat(settings.lent().variable(java.util.Map.of("AZURE_API_KEY", "a", "GEMINI_API_KEY", "g"), "AZURE_API_KEY"))
                .contains("a");
        assertThat(settings.lent().variable(java.util.Map.of("GEMINI_API_KEY", "g"), "GEMINI_API_KEY")).as("not listed").isEmpty();
        assertThat(config.ignoredKeys()).isEmpty();
        assertThat(ConfigPrinter.print(config)).contains("  admin_allowed_env_vars: [AZURE_API_KEY, OPENAI_API_KEY]",
                "  admin_api_base_denied_networks: [\"10.0.0.0/8\", \"fd00::/8\"]",
                "  admin_api_base_allowed_networks: [\"169.254.170.2\"]",
                "  admin_allowed_credentials: [application_default, aws_default_chain, files]");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            admin_allowed_env_vars: OPENAI_API_KEY            | general_settings.admin_allowed_env_vars: "OPENAI_API_KEY" (expected: a list, each item a variable name such as OPENAI_API_KEY)
            admin_allowed_env_vars: [os.environ/X]            | general_settings.admin_allowed_env_vars[0]: os.environ/X (expected: the environment variable X to be set)
            admin_allowed_env_vars: [OPENAI-KEY]              | general_settings.admin_allowed_env_vars[0]: OPENAI-KEY (expected: a variable name such as OPENAI_API_KEY)
            admin_allowed_env_vars: ['']                      | general_settings.admin_allowed_env_vars[0]: "" (expected: a non-empty string)
            admin_api_base_denied_networks: [10.0.0.0/33]     | general_settings.admin_api_base_denied_networks[0]: 10.0.0.0/33 (expected: a network in CIDR form, such as 169.254.0.0/16 or fd00::/8 (a prefix length from 0 to 32))
            admin_api_base_allowed_networks: [example.com/8]  | general_settings.admin_api_base_allowed_networks[0]: example.com/8 (expected: a network in CIDR form, such as 169.254.0.0/16 or fd00::/8 (an IPv4 or IPv6 address))
            admin_allowed_credentials: [env]                  | general_settings.admin_allowed_credentials[0]: env (expected: one of application_default, aws_default_chain, files)
            admin_allowed_credentials: files                  | general_settings.admin_allowed_credentials: "files" (expected: a list, each item one of application_default, aws_default_chain, files)
            admin_api_base_allowed_networks: {a: 1}           | general_settings.admin_api_base_allowed_networks: a map (expected: a list, each item a network in CIDR form, such as 169.254.0.0/16 or fd00::/8)
            """)
    void checksEachSetting(String setting, String problem) {
        assertThat(Configs.problems(Configs.withSection("general_settings:\n  " + setting))).containsExactly(problem);
    }

    @Test
    void byDefaultTheModelApiIsLentNothing() throws ConfigException {
        AmbientCredentials lent = Configs.parse(Configs.withSection("")).general().modelApi().lent();
        assertThat(lent.variable(java.util.Map.of("OPENAI_API_KEY", "sk-env"), "OPENAI_API_KEY")).isEmpty();
        assertThat(lent.kinds()).isEmpty();
        assertThat(AmbientCredentials.OPERATOR.variable(java.util.Map.of("OPENAI_API_KEY", "sk-env"), "OPENAI_API_KEY"))
                .contains("sk-env");
    }

    @Test
    void aConfigFileDeploymentIsTrustedWhereverItPoints() throws ConfigException {
        assertThat(Configs.parse(Configs.singleDeployment("http://169.254.169.254", "")).deployments().getFirst().params()
                .endpoint().apiBase()).contains("http://169.254.169.254");
    }
}
