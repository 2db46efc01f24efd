package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Deployment ids: written, or derived from the raw entry so they survive secret rotation. */
class DeploymentIdsTest {
    static final String ONE = """
            model_list:
              - model_name: gpt-4o
                litellm_params:
                  model: azure/gpt-4o-eu
                  api_base: https://eu.example.com
                  api_key: os.environ/AZURE_KEY
            """;

    @Test
    void derivesTheSha256OfTheEntryAsCanonicalJson() throws Exception {
        String canonical = "{\"litellm_params\":{\"api_base\":\"https://eu.example.com\",\"api_key\":\"os.environ/AZURE_KEY\","
                + "\"model\":\"azure/gpt-4o-eu\"},\"model_name\":\"gpt-4o\"}";
        String expected = HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));

        assertThat(idsOf(ONE, Map.of("AZURE_KEY", "k"))).containsExactly(expected);
    }

    @Test
    void aDerivedIdSurvivesRotatingTheSecretInTheEnvironment() throws ConfigException {
        assertThat(idsOf(ONE, Map.of("AZURE_KEY", "old-key"))).isEqualTo(idsOf(ONE, Map.of("AZURE_KEY", "new-key")));
    }

    @Test
    void aDerivedIdDoesNotDependOnKeyOrderOrModelInfo() throws ConfigException {
        String reordered = """
                model_list:
                  - litellm_params:
                      api_key: os.environ/AZURE_KEY
                      model: azure/gpt-4o-eu
                      api_base: https://eu.example.com
                    model_name: gpt-4o
                    model_info: {max_input_tokens: 1000}
                """;

        assertThat(idsOf(reordered, Map.of("AZURE_KEY", "k"))).isEqualTo(idsOf(ONE, Map.of("AZURE_KEY", "k")));
    }

    @Test
    void differentParamsOrGroupsGiveDifferentIds() throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: azure/gpt-4o, api_base: "https://eu.example.com"}
                  - model_name: gpt-4o
                    litellm_params: {model: azure/gpt-4o, api_base: "https://us.example.com"}
                  - model_name: gpt-4o-backup
                    litellm_params: {model: azure/gpt-4o, api_base: "https://eu.example.com"}
                  - model_name: gpt-4o
                    litellm_params: {model: azure/gpt-4o, api_base: "https://eu.example.com", rpm: 10}
                """;

        assertThat(idsOf(yaml, Map.of())).doesNotHaveDuplicates().hasSize(4);
    }

    @Test
    void identicalEntriesGetDistinctIdsInFileOrder() throws ConfigException {
        String entry = """
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                """;
        List<String> ids = idsOf("model_list:\n" + entry + entry + entry, Map.of());

        String base = ids.getFirst();
        assertThat(base).matches("[0-9a-f]{64}");
        assertThat(ids).containsExactly(base, base + "-2", base + "-3");
        assertThat(idsOf("model_list:\n" + entry + entry + entry, Map.of())).isEqualTo(ids);
    }

    @Test
    void usesModelInfoIdWhenWritten() throws ConfigException {
        String yaml = """
                model_list:
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                    model_info: {id: primary}
                  - model_name: gpt-4o
                    litellm_params: {model: openai/gpt-4o}
                """;

        List<String> ids = idsOf(yaml, Map.of());

        assertThat(ids.get(0)).isEqualTo("primary");
        assertThat(ids.get(1)).matches("[0-9a-f]{64}");
    }

    @Test
    void aWrittenIdUsedTwiceIsAProblemNamingBothEntries() {
        String yaml = """
                model_list:
                  - model_name: a
                    litellm_params: {model: openai/gpt-4o}
                    model_info: {id: eu-1}
                  - model_name: b
                    litellm_params: {model: openai/gpt-4o}
                  - model_name: c
                    litellm_params: {model: openai/gpt-4o-mini}
                    model_info: {id: eu-1}
                """;

        assertThat(Configs.problems(yaml))
                .containsExactly("model_list[2].model_info.id: eu-1 (expected: an id not already used by model_list[0])");
    }

    private static List<String> idsOf(String yaml, Map<String, String> env) throws ConfigException {
        return Configs.parse(yaml, env).deployments().stream().map(Deployment::id).toList();
    }
}
