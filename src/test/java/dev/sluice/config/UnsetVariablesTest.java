package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.testing.Configs;
import dev.sluice.wire.Json;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A deployment whose credentials or endpoint name an unset {@code os.environ/} variable: LiteLLM
 * starts with it, and so does Sluice, warning about it; elsewhere an unset variable still
 * refuses the config.
 */
class UnsetVariablesTest {
    static final String CONFIG = """
            model_list:
              - model_name: gpt-4o
                litellm_params:
                  model: openai/gpt-4o
                  api_key: os.environ/OPENAI_API_KEY
                model_info: {id: openai-main}
              - model_name: gpt-4o
                litellm_params:
                  model: azure/my-gpt4o
                  api_base: os.environ/AZURE_API_BASE
                  api_key: os.environ/AZURE_API_KEY
                  api_version: os.environ/AZURE_API_VERSION
                model_info: {id: azure-eu}
              - model_name: bedrock-claude
                litellm_params:
                  model: openai/claude
                  aws_access_key_id: os.environ/AWS_ACCESS_KEY_ID
                  aws_secret_access_key: os.environ/AWS_SECRET_ACCESS_KEY
                  aws_region_name: us-east-1
                model_info: {id: claude-1}
            """;
    static final Map<String, String> ENV = Map.of("OPENAI_API_KEY", "sk-set", "AZURE_API_VERSION", "2024-06-01",
            "AWS_ACCESS_KEY_ID", "AKIA-set");

    @Test
    void keepsTheDeploymentAndNamesTheVariablesItMisses() throws ConfigException {
        SluiceConfig config = Configs.parse(CONFIG, ENV);

        assertThat(config.deployments()).extracting(Deployment::id).containsExactly("openai-main", "azure-eu", "claude-1");
        assertThat(config.deployments().get(0).params().endpoint().unsetVariables()).isEmpty();
        LitellmParams azure = config.deployments().get(1).params();
        assertThat(azure.endpoint().unsetVariables()).containsExactly("AZURE_API_BASE", "AZURE_API_KEY");
        assertThat(azure.endpoint().apiBase()).isEmpty();
        assertThat(azure.endpoint().apiKey()).isEmpty();
        assertThat(azure.endpoint().apiVersion()).contains("2024-06-01");
        assertThat(config.deployments().get(2).params().endpoint().unsetVariables()).containsExactly("AWS_SECRET_ACCESS_KEY");
    }

    @Test
    void warnsOnceForEachDeploymentNamingItsPlaceGroupIdAndVariables() throws ConfigException {
        assertThat(UnsetVariableWarnings.of(Configs.parse(CONFIG, ENV))).containsExactly(
                "model_list[1] (model_name gpt-4o, id azure-eu): environment variables AZURE_API_BASE, AZURE_API_KEY are not"
                        + " set; the deployment is listed, but every call to it fails until they are set and Sluice restarts",
                "model_list[2] (model_name bedrock-claude, id claude-1): environment variable AWS_SECRET_ACCESS_KEY is not"
                        + " set; the deployment is listed, but every call to it fails until it is set and Sluice restarts");
    }

    @Test
    void countsPlacesInTheFilePastDeploymentsLeftOut() throws ConfigException {
        SluiceConfig config = Configs.parse("""
                model_list:
                  - model_name: sm
                    litellm_params: {model: sagemaker/endpoint}
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o, api_key: os.environ/UNSET_KEY}
                    model_info: {id: d-1}
                """);

        assertThat(UnsetVariableWarnings.of(config)).singleElement().asString().startsWith("model_list[1] (model_name gpt-4o, id d-1)");
    }

    @Test
    void checkConfigPrintsTheVariablesWithTheDeploymentAndStaysValidYaml() throws Exception {
        String printed = ConfigPrinter.print(Configs.parse(CONFIG, ENV));

        assertThat(printed).contains("""
                  - model_name: gpt-4o
                    id: azure-eu  # model_info.id
                    provider: azure
                    provider_model: my-gpt4o
                    unset_variables: [AZURE_API_BASE, AZURE_API_KEY]  # not set: every call to this deployment fails until they are
                    litellm_params:
                      model: azure/my-gpt4o
                      api_version: "2024-06-01"
                """);
        JsonNode tree = YamlTree.read(printed, "printed");
        assertThat(tree.path("model_list").path(1).path("unset_variables").toString()).isEqualTo("[\"AZURE_API_BASE\",\"AZURE_API_KEY\"]");
        assertThat(printed).doesNotContain("sk-set");
    }

    @Test
    void aSetVariableIsUsedAndNamesNothing() throws ConfigException {
        SluiceConfig config = Configs.parse(CONFIG, Map.of("OPENAI_API_KEY", "k", "AZURE_API_BASE", "https://eu.example.com",
                "AZURE_API_KEY", "k2", "AZURE_API_VERSION", "v", "AWS_ACCESS_KEY_ID", "a", "AWS_SECRET_ACCESS_KEY", "s"));

        assertThat(config.deployments()).allSatisfy(d -> assertThat(d.params().endpoint().unsetVariables()).isEmpty());
        assertThat(UnsetVariableWarnings.of(config)).isEmpty();
    }

    @Test
    void anUnsetMasterKeyStillRefusesToStartRatherThanLeaveTheGatewayOpen() {
        assertThat(Configs.problems(Configs.withSection("general_settings: {master_key: os.environ/MY_MASTER_KEY}")))
                .containsExactly("general_settings.master_key: os.environ/MY_MASTER_KEY "
                        + "(expected: the environment variable MY_MASTER_KEY to be set)");
    }

    @Test
    void anUnsetDatabaseUrlOrRedisHostStillRefusesToStart() {
        assertThat(Configs.problems(Configs.withSection("""
                general_settings: {database_url: os.environ/DATABASE_URL_X}
                router_settings: {redis_host: os.environ/REDIS_HOST_X}
                """))).containsExactlyInAnyOrder(
                "general_settings.database_url: os.environ/DATABASE_URL_X (expected: the environment variable DATABASE_URL_X to be set)",
                "router_settings.redis_host: os.environ/REDIS_HOST_X (expected: the environment variable REDIS_HOST_X to be set)");
    }

    @Test
    void anEntryAddedThroughTheApiWithAnUnsetVariableIsRefused() {
        JsonNode entry = Json.MAPPER.createObjectNode().put("model_name", "g").set("litellm_params",
                Json.MAPPER.createObjectNode().put("model", "openai/gpt-4o").put("api_key", "os.environ/UNSET_KEY"));

        assertThatThrownBy(() -> ConfigLoader.parseDeployment(entry, Map.of(), Set.of("openai"), Set.of()))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems()).containsExactly(
                        "model_list[0].litellm_params.api_key: os.environ/UNSET_KEY (expected: the environment variable UNSET_KEY to be set)"));
    }
}
