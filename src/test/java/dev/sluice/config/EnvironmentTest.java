package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.sluice.testing.Configs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** os.environ/NAME wherever a value goes, and LiteLLM's implicit environment fallbacks. */
class EnvironmentTest {

    @Test
    void replacesAReferenceWithTheVariable() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: os.environ/GROUP
                    litellm_params:
                      model: os.environ/MODEL
                      api_base: os.environ/API_BASE
                      api_key: os.environ/API_KEY
                """, Map.of("GROUP", "gpt-4o", "MODEL", "azure/gpt-4o-eu", "API_BASE", "https://eu.example.com", "API_KEY", "k-1"));

        Deployment deployment = config.deployments().getFirst();
        assertThat(deployment.modelName()).isEqualTo("gpt-4o");
        assertThat(deployment.params().provider()).isEqualTo("azure");
        assertThat(deployment.params().providerModel()).isEqualTo("gpt-4o-eu");
        assertThat(deployment.params().endpoint().apiBase()).contains("https://eu.example.com");
        assertThat(deployment.params().endpoint().apiKey()).contains(new Secret("k-1"));
    }

    @Test
    void anUnsetVariableOutsideADeploymentsCredentialsIsAProblemNamingThePathAndTheVariable() {
        assertThat(Configs.problems(Configs.withParam("rpm: os.environ/RPM")))
                .containsExactly("model_list[0].litellm_params.rpm: os.environ/RPM "
                        + "(expected: the environment variable RPM to be set)");
    }

    @Test
    void aReferenceWithoutANameIsAProblem() {
        assertThat(Configs.problems(Configs.withParam("api_version: os.environ/")))
                .containsExactly("model_list[0].litellm_params.api_version: \"os.environ/\" "
                        + "(expected: os.environ/ followed by a variable name)");
    }

    @Test
    void convertsNumbersFromVariablesLikeLiteralNumbers() throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      rpm: os.environ/RPM
                      weight: os.environ/WEIGHT
                      timeout: os.environ/TIMEOUT
                router_settings:
                  num_retries: os.environ/RETRIES
                  disable_cooldowns: os.environ/NO_COOLDOWNS
                """;
        Map<String, String> env = Map.of(
                "RPM", "120", "WEIGHT", "0.5", "TIMEOUT", "1.5", "RETRIES", "0", "NO_COOLDOWNS", "TRUE");

        SluiceConfig config = Configs.parse(yaml, env);

        LitellmParams params = config.deployments().getFirst().params();
        assertThat(params.capacity().rpm()).hasValue(120);
        assertThat(params.weight()).hasValue(0.5);
        assertThat(params.attempts().timeout()).contains(Duration.ofMillis(1500));
        assertThat(config.router().retries().numRetries()).isZero();
        assertThat(config.router().cooldowns().disableCooldowns()).isTrue();
    }

    @Test
    void validatesNumbersFromVariablesLikeLiteralNumbers() {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params:
                      model: openai/gpt-4o
                      rpm: os.environ/RPM
                      tpm: os.environ/TPM
                      timeout: os.environ/TIMEOUT
                """;

        assertThat(Configs.problems(yaml, Map.of("RPM", "-5", "TPM", "lots", "TIMEOUT", "0"))).containsExactly(
                "model_list[0].litellm_params.rpm: os.environ/RPM = \"-5\" (expected: >= 0)",
                "model_list[0].litellm_params.tpm: os.environ/TPM = **** (expected: an integer >= 0)",
                "model_list[0].litellm_params.timeout: os.environ/TIMEOUT = \"0\" (expected: > 0)");
    }

    @Test
    void neverShowsAVariableThatMightBeACredential() {
        String yaml = Configs.withParam("api_base: os.environ/AZURE_API_KEY");

        assertThat(Configs.problems(yaml, Map.of("AZURE_API_KEY", "azure-key-that-must-not-leak")))
                .containsExactly("model_list[0].litellm_params.api_base: os.environ/AZURE_API_KEY = **** "
                        + "(expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)");
    }

    @Test
    void resolvesVariablesInsideRoutingStrategyArgs() throws ConfigException {
        SluiceConfig config = Configs.parse(
                Configs.withSection("router_settings:\n  routing_strategy_args: {ttl: os.environ/TTL, nested: [os.environ/TTL]}"),
                Map.of("TTL", "60"));

        assertThat(config.router().routing().routingStrategyArgs())
                .containsExactly(entry("ttl", "60"), entry("nested", java.util.List.of("60")));
    }

    @Test
    void readsRedisSettingsFromTheEnvironmentWhenRouterSettingsDoNotSetThem() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection(""),
                Map.of("REDIS_HOST", "redis.internal", "REDIS_PORT", "6380", "REDIS_PASSWORD", "redis-pass")).router();

        assertThat(router.redis().redisHost()).contains("redis.internal");
        assertThat(router.redis().redisPort()).hasValue(6380);
        assertThat(router.redis().redisPassword()).contains(new Secret("redis-pass"));
        assertThat(router.sources()).contains(
                entry("redis_host", "environment"), entry("redis_port", "environment"), entry("redis_password", "environment"));
    }

    @Test
    void routerSettingsWinOverRedisVariables() throws ConfigException {
        RouterSettings router = Configs.parse(Configs.withSection("router_settings: {redis_host: from-file}"),
                Map.of("REDIS_HOST", "from-env")).router();

        assertThat(router.redis().redisHost()).contains("from-file");
        assertThat(router.sources()).contains(entry("redis_host", "router_settings"));
    }

    @Test
    void validatesARedisPortFromTheEnvironment() {
        assertThat(Configs.problems(Configs.withSection(""), Map.of("REDIS_PORT", "70000")))
                .containsExactly("router_settings.redis_port: os.environ/REDIS_PORT = \"70000\" (expected: from 1 to 65535)");
    }

    @Test
    void readsTheMasterKeyAndDatabaseUrlFromTheEnvironmentWhenGeneralSettingsDoNotSetThem() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection(""),
                Map.of("LITELLM_MASTER_KEY", "sk-env-master", "DATABASE_URL", "postgresql://db/litellm")).general();

        assertThat(general.masterKey()).contains(new Secret("sk-env-master"));
        assertThat(general.store().databaseUrl()).contains(new Secret("postgresql://db/litellm"));
    }

    @Test
    void generalSettingsWinOverTheirVariables() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection("general_settings: {master_key: sk-file-master}"),
                Map.of("LITELLM_MASTER_KEY", "sk-env-master")).general();

        assertThat(general.masterKey()).contains(new Secret("sk-file-master"));
    }

    @Test
    void anEmptyFallbackVariableCountsAsUnset() throws ConfigException {
        GeneralSettings general = Configs.parse(Configs.withSection(""), Map.of("LITELLM_MASTER_KEY", "")).general();

        assertThat(general.masterKey()).isEmpty();
    }

    @Test
    void kubernetesServiceLinkFormOfRedisPortGivesThePort() throws Exception {
        RouterSettings router = Configs.parse(Configs.withSection(""), Map.of("REDIS_PORT", "tcp://10.0.0.7:6380")).router();

        assertThat(router.redis().redisPort()).hasValue(6380);
    }

    @Test
    void aKeyEndingInANewlineIsRefusedWithoutShowingIt() {
        assertThat(Configs.problems(Configs.withSection("general_settings: {master_key: os.environ/MK}"),
                Map.of("MK", "sk-secret-value\n")))
                .containsExactly("general_settings.master_key: os.environ/MK = **** (expected: text without control characters such as a line break)");
    }

    @Test
    void apiBaseWithAPortOutOfRangeAQueryOrUserInfoIsRefused() {
        String rule = " (expected: an absolute http or https URL with a host, a port up to 65535 and no user info, query or fragment)";
        for (String base : new String[] {"http://h:99999/v1", "http://h/v1?x=1", "http://u:p@h/v1"}) {
            assertThat(Configs.problems("model_list:\n  - model_name: g\n    litellm_params: {model: openai/m, api_base: '" + base + "'}\n"))
                    .hasSize(1).first().asString().endsWith(rule);
        }
        assertThat(Configs.problemsOrNone("model_list:\n  - model_name: g\n    litellm_params: {model: openai/m, api_base: 'http://h:65535/v1'}\n"))
                .isEmpty();
    }
}
